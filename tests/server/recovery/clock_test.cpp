// Time controls across a kill -9: a game clock stands as its last step left it (the time since,
// the downtime included, charged to nobody); a correspondence deadline is kept as the same date,
// and the game is still in its player's my_games.
#include <catch2/catch.hpp>

#include <thread>

#include "server/wall_clock.hpp"
#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;
using tanbo_server::server::wall_ms;

namespace {

// Ana's room with Ben seated; returns the state after Ana's first move, as Ben got it.
json first_move(Guest& ana, Guest& ben, const json& timer, std::string& room) {
  ana.client->send({{"type", "create"},
                    {"id", 1},
                    {"game", "mancala-simple"},
                    {"options", {{"first", 0}}},
                    {"timer", timer}});
  room = ana.client->expect("created").at("room");
  ben.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  json s = state_at(*ana.client, 1);
  state_at(*ben.client, 1);
  ana.client->send({{"type", "act"},
                    {"id", 2},
                    {"room", room},
                    {"version", 1},
                    {"action", s.at("legal").at(0)}});
  return state_at(*ben.client, 2);
}

json rejoin(ProtocolClient& c, const std::string& room) {
  c.send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
  c.expect("joined");
  return c.expect("state");
}

}  // namespace

TEST_CASE("a game clock after kill -9 stands as journaled, the downtime charged to nobody",
          "[persist][recovery][timer]") {
  DataDir dir;
  Guest ana, ben;
  std::string room;
  json before;
  {
    ServerProcess server(dir);
    ana = guest(server.port(), "Ana");
    ben = guest(server.port(), "Ben");
    before = first_move(ana, ben, {{"type", "clock"}, {"base_s", 60}, {"increment_s", 5}}, room);
    REQUIRE(before.at("clock").at("seat") == 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // Ben thinks...
    server.kill();
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // ...and the server is down
  const std::int64_t restarting = wall_ms();
  ServerProcess server(dir);
  ben = guest(server.port(), "", ben.token);
  json after = rejoin(*ben.client, room);
  const std::int64_t joined = wall_ms();
  const json& c = after.at("clock");
  REQUIRE(after.at("version") == before.at("version"));
  CHECK(c.at("seat") == 1);
  // Ana's time is exactly what her move left, as the state after it showed.
  CHECK(c.at("remaining")[0] == before.at("clock").at("remaining")[0]);
  // Ben's runs from the restart only: the 2.5 s between Ana's move and the restart are his still.
  const std::int64_t ben_left = c.at("remaining")[1];
  CHECK(ben_left <= 60'000);
  CHECK(ben_left >= 60'000 - (joined - restarting));
  CHECK(c.at("deadline").get<std::int64_t>() >= restarting + 60'000 - (joined - restarting));

  // The game goes on with the clocks as they stand: Ben's move earns his increment.
  after = rejoin(*ben.client, room);
  ben.client->send({{"type", "act"},
                    {"id", 3},
                    {"room", room},
                    {"version", after.at("version")},
                    {"action", after.at("legal").at(0)}});
  json next = state_at(*ben.client, after.at("version").get<std::uint64_t>() + 1);
  CHECK(next.at("clock").at("remaining")[1] > ben_left);
}

TEST_CASE("a correspondence game keeps its deadline across kill -9 and waits in my_games",
          "[persist][recovery][timer][correspondence]") {
  DataDir dir;
  Guest ana, ben;
  std::string room;
  json before;
  {
    ServerProcess server(dir);
    ana = guest(server.port(), "Ana");
    ben = guest(server.port(), "Ben");
    before = first_move(ana, ben, {{"type", "correspondence"}, {"days", 3}}, room);
    REQUIRE(before.at("clock").at("control") == "correspondence");
    server.kill();
  }
  ServerProcess server(dir);
  ben = guest(server.port(), "", ben.token);
  const std::int64_t deadline = before.at("clock").at("deadline");
  CHECK(deadline - before.at("clock").at("at").get<std::int64_t>() <= 3 * 86'400'000LL);
  CHECK(deadline - before.at("clock").at("at").get<std::int64_t>() > 3 * 86'400'000LL - 60'000);

  ben.client->send({{"type", "my_games"}, {"id", "g"}});
  json games = ben.client->next_but_states();
  REQUIRE(games.at("type") == "my_games");
  REQUIRE(games.at("games").size() == 1);
  CHECK(games.at("games")[0].at("room") == room);
  CHECK(games.at("games")[0].at("your_turn") == true);
  CHECK(games.at("games")[0].at("deadline") == deadline);
  CHECK(get_json(server.port(), "/api/players/" + ben.id + "/games?waiting=1").at("games").size() ==
        1);

  json after = rejoin(*ben.client, room);
  CHECK(after.at("clock").at("deadline") == deadline);
  CHECK(after.at("clock").at("seat") == 1);
}
