// Time controls across three nodes (docs/protocol.md, "Time controls"): my_games on any node
// lists a game owned by another with whose turn it is; a game clock moves with its room when the
// owner is killed, each seat's time as the last step left it.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

json my_games(ProtocolClient& c) {
  c.send({{"type", "my_games"}, {"id", "g"}});
  for (;;) {
    json m = c.next_but_states();
    if (m.at("type") == "my_games") return m.at("games");
  }
}

// my_games until `ok` holds of it (another node's listing arrives within the lobby's debounce).
json my_games_until(ProtocolClient& c, const std::function<bool(const json&)>& ok) {
  json games;
  for (int i = 0; i < 50; ++i) {
    games = my_games(c);
    if (ok(games)) return games;
    std::this_thread::sleep_for(100ms);
  }
  return games;
}

}  // namespace

TEST_CASE("time controls across nodes: my_games anywhere, a game clock through a failover",
          "[cluster][timer]") {
  auto c = start_cluster(kLease);
  if (!c) return;
  // Ana creates on n0 (the owner), Ben plays from n1.
  Guest ana = guest(c->port_of(0), "Ana"), ben = guest(c->port_of(1), "Ben");
  ana.client->send({{"type", "create"},
                    {"id", 1},
                    {"game", "mancala-simple"},
                    {"options", {{"first", 0}}},
                    {"timer", {{"type", "clock"}, {"base_s", 600}, {"increment_s", 5}}}});
  const std::string room = ana.client->expect("created").at("room");
  REQUIRE(c->listed_everywhere(room));
  ben.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  REQUIRE(ben.client->next_but_states().at("type") == "joined");
  json s = state_at(*ana.client, 1);
  REQUIRE(s.at("clock").at("control") == "clock");

  // Ben, on n1, sees the game on n0 waiting for Ana; once she moves, for him.
  auto turn_of = [&](const std::string& who_id) {
    return [&, who_id](const json& games) {
      return games.size() == 1 && games[0].at("your_turn") == (who_id == ben.id);
    };
  };
  json games = my_games_until(*ben.client, turn_of(ana.id));
  REQUIRE(games.size() == 1);
  CHECK(games[0].at("room") == room);
  CHECK(games[0].at("node") == "n0");
  CHECK(games[0].at("your_turn") == false);
  ana.client->send({{"type", "act"},
                    {"id", 2},
                    {"room", room},
                    {"version", 1},
                    {"action", s.at("legal").at(0)}});
  const json moved = state_at(*ben.client, 2);
  games = my_games_until(*ben.client, turn_of(ben.id));
  REQUIRE(games.size() == 1);
  CHECK(games[0].at("your_turn") == true);
  CHECK(games[0].contains("deadline"));
  CHECK(get_json(c->port_of(2), "/api/players/" + ben.id + "/games?waiting=1").at("games").size() ==
        1);

  // n0 dies: the room moves, Ana's time as her move left it (the store on PostgreSQL kept it).
  c->nodes[0]->kill();
  c->dead = 0;
  json back;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  for (;;) {
    try {
      ben = guest(c->port_of(1), "", ben.token);
      ben.client->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
      if (ben.client->next_but_states().at("type") == "joined") {
        back = state_at(*ben.client, 2);
        break;
      }
    } catch (const std::exception&) {
    }
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(200ms);
  }
  CHECK(c->owner(room) != "n0");
  CHECK(back.at("version") == moved.at("version"));
  CHECK(back.at("clock").at("seat") == 1);
  CHECK(back.at("clock").at("remaining")[0] == moved.at("clock").at("remaining")[0]);
  CHECK(back.at("clock").at("remaining")[1] <= 600'000);
}
