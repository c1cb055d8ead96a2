// A game that only the test build registers (tests/support/games/nim.hpp) plays through the
// whole server path: listed, created, joined, played, watched, recorded, replayed, and brought
// back after kill -9. The server is built from server/main.cpp with that one registration
// linked in: nothing in server/ or protocol/ knows the game.
#include <catch2/catch.hpp>

#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

class NimServer {
 public:
  explicit NimServer(const DataDir& dir)
      : process_(TANBO_TESTGAMES_SERVER_BINARY,
                 {"--bind", "127.0.0.1", "--port", "0", "--threads", "2", "--data-dir",
                  dir.path.string(), "--rate", "1000000", "--rate-burst", "1000000"}),
        port_(listening_port(process_, std::chrono::seconds(20))) {}
  std::uint16_t port() const { return port_; }
  void kill() {
    process_.signal(SIGKILL);
    process_.wait(std::chrono::seconds(10));
  }

 private:
  ChildProcess process_;
  std::uint16_t port_;
};

// Reads until a `state` of `room` at version `at_least` or later: a client in two rooms hears both.
json state_in(ProtocolClient& c, const std::string& room, std::uint64_t at_least) {
  for (;;) {
    json s = state_at(c, at_least);
    if (s.at("room") == room) return s;
  }
}

std::string create_nim(ProtocolClient& c) {
  c.send({{"type", "create"},
          {"id", "c"},
          {"game", "nim"},
          {"options", {{"heaps", 2}, {"first", 0}}}});
  std::string room = c.expect("created").at("room");
  state_in(c, room, 0);
  return room;
}

json take(int heap, int n) { return {{"heap", heap}, {"take", n}}; }

// `mover` takes; every client then sees the next version, which is returned as `mover` sees it.
json act(ProtocolClient& mover, std::vector<ProtocolClient*> all, const std::string& room,
         std::uint64_t version, const json& action) {
  mover.send({{"type", "act"}, {"room", room}, {"version", version}, {"action", action}});
  json seen;
  for (auto* c : all) {
    json s = state_in(*c, room, version + 1);
    if (c == &mover) seen = s;
  }
  return seen;
}

}  // namespace

TEST_CASE("a game registered by the build alone plays through the whole server",
          "[rooms][registry]") {
  DataDir dir;
  NimServer server(dir);
  Guest ana = guest(server.port(), "Ana"), bo = guest(server.port(), "Bo"),
        cy = guest(server.port(), "Cy");

  // Listed with its options, as the catalogue's own games are.
  ana.client->send({{"type", "games"}, {"id", "g"}});
  const json games = ana.client->expect("games").at("games");
  auto nim =
      std::find_if(games.begin(), games.end(), [](const json& g) { return g["id"] == "nim"; });
  REQUIRE(nim != games.end());
  CHECK(nim->at("options").at(0).at("name") == "heaps");

  const std::string room = create_nim(*ana.client);
  bo.client->send({{"type", "join"}, {"room", room}, {"as", "player"}});
  json s = state_at(*bo.client, 1);
  state_at(*ana.client, 1);
  cy.client->send({{"type", "join"}, {"room", room}, {"as", "spectator"}});
  state_at(*cy.client, 1);
  CHECK(s.at("state") == json{{"heaps", {3, 4}}, {"to_move", 0}});
  std::vector<ProtocolClient*> all{ana.client.get(), bo.client.get(), cy.client.get()};

  // The engine refuses what is not legal, and the referee says so.
  ana.client->send({{"type", "act"}, {"room", room}, {"version", 1}, {"action", take(0, 9)}});
  CHECK(ana.client->expect("error").at("code") == "illegal_action");

  // Ana evens the heaps, then mirrors Bo: she takes the last stone.
  s = act(*ana.client, all, room, 1, take(1, 1));
  CHECK(s.at("state").at("heaps") == json{3, 3});
  s = act(*bo.client, all, room, 2, take(0, 3));
  s = act(*ana.client, all, room, 3, take(1, 3));
  CHECK(s.at("status") == "finished");
  CHECK(s.at("result").at("places") == json{1, 2});
  CHECK(s.at("result").at("reason") == "last_stone");

  SECTION("its record replays through the engine to the same end") {
    const json steps = get_json(server.port(), "/api/games/" + room + "-1/steps").at("steps");
    REQUIRE(steps.size() == 4);
    CHECK(steps.at(2).at("action") == take(0, 3));
    CHECK(steps.back().at("state").at("heaps") == json{0, 0});
    CHECK(steps.back().at("status") == "finished");
  }

  SECTION("a room half played comes back after kill -9, and plays to its end") {
    const std::string second = create_nim(*ana.client);
    bo.client->send({{"type", "join"}, {"room", second}, {"as", "player"}});
    state_in(*bo.client, second, 1);
    state_in(*ana.client, second, 1);
    act(*ana.client, {ana.client.get(), bo.client.get()}, second, 1, take(0, 2));
    server.kill();

    NimServer again(dir);
    Guest ana2 = guest(again.port(), "", ana.token), bo2 = guest(again.port(), "", bo.token);
    for (Guest* g : {&ana2, &bo2})
      g->client->send({{"type", "join"}, {"room", second}, {"as", "player"}});
    json back = state_in(*bo2.client, second, 2);
    state_in(*ana2.client, second, 2);
    CHECK(back.at("version") == 2);
    CHECK(back.at("state") == json{{"heaps", {1, 4}}, {"to_move", 1}});
    std::vector<ProtocolClient*> both{ana2.client.get(), bo2.client.get()};
    act(*bo2.client, both, second, 2, take(1, 3));
    // Ana's take leaves Bo one stone, the one legal action: the referee plays it (R4).
    json end = act(*ana2.client, both, second, 3, take(0, 1));
    CHECK(end.at("status") == "finished");
    CHECK(end.at("result").at("places") == json{2, 1});
  }
}
