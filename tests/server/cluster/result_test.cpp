// The result across nodes (docs/protocol.md, "The result"): a ranked room's finished state
// carries the ratings and the seats the computer finished for, to a member on another node, and
// again once the room has moved to another node after its owner died.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

TEST_CASE("a result's ratings and takeover reach every node, and move with the room",
          "[cluster][ratings][takeover]") {
  auto c = start_cluster(kLease, {"--takeover-grace", "1"});
  if (!c) return;
  // Ana creates on n0 (the owner), Ben plays from n1.
  Guest ana = guest(c->port_of(0), "Ana"), ben = guest(c->port_of(1), "Ben");
  ana.client->send({{"type", "create"},
                    {"id", 1},
                    {"game", "mancala-simple"},
                    {"ranked", true},
                    {"options", {{"first", 0}}}});
  const std::string room = ana.client->expect("created").at("room");
  REQUIRE(c->listed_everywhere(room));
  ben.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  REQUIRE(ben.client->next_but_states().at("type") == "joined");
  json s = state_at(*ana.client, 1);
  ben.client.reset();  // Ben leaves; past the grace the computer plays his seat

  bool computer = false;
  for (int guard = 0; guard < 100 && !computer; ++guard) {
    REQUIRE(s.at("status") == "playing");
    const std::uint64_t v = s.at("version");
    if (s.at("pending").at("seat") == 0)
      ana.client->send(
          {{"type", "act"}, {"room", room}, {"version", v}, {"action", s.at("legal").at(0)}});
    s = state_at(*ana.client, v + 1);
    for (const auto& e : s.at("events"))
      computer = computer || (e.at("type") == "action" && e.value("by", "") == "takeover");
  }
  REQUIRE(computer);
  ana.client->send({{"type", "resign"}, {"room", room}});
  json end;
  do end = state_at(*ana.client, s.at("version").get<std::uint64_t>() + 1);
  while (end.at("status") != "finished");
  const json expected = json::parse(R"({"places": [2, 1], "reason": "resigned",
    "takeover": [1],
    "ratings": [{"before": 1500, "after": 1516}, {"before": 1500, "after": 1484}]})");
  CHECK(end.at("result") == expected);

  // Ben back on n2: the room's state reaches him through its owner with the same result.
  auto rejoin = [&](std::size_t node) {
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    for (;;) {
      try {
        ben = guest(c->live_port(node), "", ben.token);
        ben.client->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
        if (ben.client->next_but_states().at("type") == "joined") return state_at(*ben.client, 0);
      } catch (const std::exception&) {
      }
      REQUIRE(std::chrono::steady_clock::now() < deadline);
      std::this_thread::sleep_for(200ms);
    }
  };
  json there = rejoin(2);
  CHECK(there.at("status") == "finished");
  CHECK(there.at("result") == expected);

  // n0 dies: the room moves to another node, which rebuilds it from the store, result included.
  c->nodes[0]->kill();
  c->dead = 0;
  json moved;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  do {
    std::this_thread::sleep_for(200ms);
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    moved = rejoin(2);
  } while (c->owner(room) == "n0" || c->owner(room).empty());
  CHECK(moved.at("status") == "finished");
  CHECK(moved.at("version") == end.at("version"));
  CHECK(moved.at("result") == expected);
}
