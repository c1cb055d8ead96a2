// Numbered messages between nodes: a gap or a late message is seen (server/cluster/link_order.hpp).
#include <catch2/catch.hpp>

#include "server/cluster/link_order.hpp"

using tanbo_server::server::cluster::LinkArrivals;
using tanbo_server::server::cluster::LinkStamps;
using Verdict = LinkArrivals::Verdict;

TEST_CASE("a link's messages are numbered from 1 by their sender, one count per receiver",
          "[cluster][relay]") {
  LinkStamps stamps;
  nlohmann::json a, b, c;
  stamps.stamp("n1", a);
  stamps.stamp("n2", b);
  stamps.stamp("n1", c);
  CHECK(a.at("seq") == 1);
  CHECK(b.at("seq") == 1);
  CHECK(c.at("seq") == 2);
  CHECK(a.at("run") == c.at("run"));
  LinkStamps().stamp("n1", a);
  CHECK(a.at("run") != c.at("run"));  // another run of the sender
}

TEST_CASE("a receiver takes messages in order, sees a gap, drops a late one", "[cluster][relay]") {
  auto head = [](std::uint64_t run, std::uint64_t seq) {
    return nlohmann::json{{"k", "frame"}, {"from", "n1"}, {"run", run}, {"seq", seq}};
  };
  LinkArrivals arrivals;
  CHECK(arrivals.check(head(7, 40)) == Verdict::in_order);  // the first heard of this run
  CHECK(arrivals.check(head(7, 41)) == Verdict::in_order);
  CHECK(arrivals.check(head(7, 44)) == Verdict::after_gap);  // 42 and 43 were lost
  CHECK(arrivals.check(head(7, 43)) == Verdict::stale);      // delivered after 44
  CHECK(arrivals.check(head(7, 45)) == Verdict::in_order);
  CHECK(arrivals.check(head(9, 1)) == Verdict::in_order);        // the sender started again
  CHECK(arrivals.check({{"k", "frame"}}) == Verdict::in_order);  // not numbered
}
