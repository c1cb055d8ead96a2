// server/pairing/matching.hpp: who plays whom in one wave.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "server/pairing/matching.hpp"

using namespace tanbo_server::server::pairing;

namespace {

std::vector<Candidate> ratings(std::initializer_list<double> rs) {
  std::vector<Candidate> out;
  int i = 0;
  for (double r : rs) out.push_back({r, 0, "p" + std::to_string(i++), {}});
  return out;
}

// The groups as sets of ratings, for comparisons that do not depend on the order.
std::set<std::multiset<double>> as_ratings(const std::vector<std::vector<std::size_t>>& groups,
                                           const std::vector<Candidate>& c) {
  std::set<std::multiset<double>> out;
  for (const auto& g : groups) {
    std::multiset<double> m;
    for (auto i : g) m.insert(c[i].rating);
    out.insert(m);
  }
  return out;
}

}  // namespace

TEST_CASE("two-player waves pair everyone they can, closest ratings together",
          "[pairing][matching]") {
  auto c = ratings({1500, 1900, 1510, 1890, 1200, 1210});
  auto g = pair_wave(c, 2, false);
  CHECK(as_ratings(g, c) ==
        std::set<std::multiset<double>>{{1500, 1510}, {1890, 1900}, {1200, 1210}});
  SECTION("an odd one out waits for the next wave: the one who came last") {
    auto odd = ratings({1500, 1500, 1500});
    odd[2].waited_s = 0, odd[0].waited_s = 10, odd[1].waited_s = 10;
    auto h = pair_wave(odd, 2, false);
    REQUIRE(h.size() == 1);
    std::set<std::size_t> seated(h[0].begin(), h[0].end());
    CHECK(seated == std::set<std::size_t>{0, 1});
  }
  SECTION("a hundred seekers make fifty pairs") {
    std::vector<Candidate> many;
    for (int i = 0; i < 100; ++i)
      many.push_back({1000.0 + (i * 37) % 900, 0, "p" + std::to_string(i), {}});
    CHECK(pair_wave(many, 2, false).size() == 50);
  }
}

TEST_CASE("the pair that just played each other is avoided when another pairing exists",
          "[pairing][matching]") {
  auto c = ratings({1500, 1501, 1502, 1503});
  c[0].last_opponent = "p1";
  c[1].last_opponent = "p0";
  auto g = pair_wave(c, 2, false);
  REQUIRE(g.size() == 2);
  for (const auto& pair : g)
    CHECK(std::set<std::size_t>(pair.begin(), pair.end()) != std::set<std::size_t>{0, 1});
  SECTION("but two alone play again rather than wait") {
    auto two = ratings({1500, 1501});
    two[0].last_opponent = "p1";
    CHECK(pair_wave(two, 2, false).size() == 1);
  }
}

TEST_CASE("ranked pools pair only within a range that widens with waiting", "[pairing][matching]") {
  auto c = ratings({1500, 1800});
  CHECK(pair_wave(c, 2, true).empty());       // 300 apart, range 100 at once
  CHECK(pair_wave(c, 2, false).size() == 1);  // unranked: anyone, closest first
  c[0].waited_s = c[1].waited_s = 8;          // 100 + 8 * 25 = 300
  CHECK(pair_wave(c, 2, true).size() == 1);
  CHECK(rating_range(0) == 100);
  CHECK(rating_range(1000) == 1000);
  SECTION("the closest ratings first") {
    auto d = ratings({1500, 1590, 1700, 1790});
    CHECK(as_ratings(pair_wave(d, 2, true), d) ==
          std::set<std::multiset<double>>{{1500, 1590}, {1700, 1790}});
  }
}

TEST_CASE("three- and four-player pools make groups of that size, closest ratings together",
          "[pairing][matching]") {
  auto c = ratings({1000, 2000, 1010, 2010, 1020, 2020, 1500});
  auto g = pair_wave(c, 3, false);
  CHECK(as_ratings(g, c) ==
        std::set<std::multiset<double>>{{1000, 1010, 1020}, {1500, 2000, 2010}});
  auto four = pair_wave(c, 4, false);
  REQUIRE(four.size() == 1);
  CHECK(four[0].size() == 4);
  SECTION("ranked: a group must fit every member's range") {
    CHECK(pair_wave(ratings({1000, 1050, 1500}), 3, true).empty());
    CHECK(pair_wave(ratings({1000, 1050, 1090}), 3, true).size() == 1);
  }
}

TEST_CASE("a seeker never meets itself", "[pairing][matching]") {
  std::vector<Candidate> c = {{1500, 0, "same", {}}, {1500, 0, "same", {}}};
  CHECK(pair_wave(c, 2, false).empty());
}
