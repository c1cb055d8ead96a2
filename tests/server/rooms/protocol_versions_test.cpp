// Protocol versions in one room (docs/protocol-changelog.md): a client of version 1 and one of
// version 2 each get the names of their own version, from frames written once per version.
#include <catch2/catch.hpp>

#include "tests/server/rooms/cpu_fixture.hpp"
#include "tests/server/rooms/fixture.hpp"
#include "tests/server/support/versions.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

json error_of(ProtocolClient& c, json msg) {
  msg["id"] = "e";
  c.send(msg);
  return c.expect("error");
}

}  // namespace

TEST_CASE("hello names the version, and one the server does not speak is refused",
          "[server][rooms][versions]") {
  RoomsServer fx;
  ProtocolClient c(fx.port());
  for (int v : {0, 3, -1}) {
    auto e = error_of(c, {{"type", "hello"}, {"protocol", v}});
    CHECK(e.at("code") == "unsupported_protocol");
    CHECK_THAT(e.at("message").get<std::string>(), Catch::Contains("1 to 2"));
  }
  CHECK(error_of(c, {{"type", "hello"}, {"protocol", "2"}}).at("code") == "bad_message");
  // Refused, the connection may still say hello: nothing else changed.
  auto w = c.hello("Olga", "", std::nullopt);
  CHECK(w.at("protocol") == 1);
  CHECK(w.at("protocols") == json::array({1, 2}));
  ProtocolClient d(fx.port());
  CHECK(d.hello("Ana").at("protocol") == 2);
}

TEST_CASE("create's player count: players, or seats from a client of version 1",
          "[server][rooms][versions]") {
  RoomsServer fx;
  ProtocolClient v1(fx.port()), v2(fx.port());
  v1.hello("Olga", "", std::nullopt);
  v2.hello("Ana");
  json state;
  create_room(v1, {{"game", "mancala-simple"}, {"seats", 3}}, &state);
  CHECK(state.at("seats").size() == 3);
  create_room(v1, {{"game", "mancala-simple"}, {"players", 4}}, &state);
  CHECK(state.at("seats").size() == 4);
  auto e = error_of(v2, {{"type", "create"}, {"game", "mancala-simple"}, {"seats", 3}});
  CHECK(e.at("code") == "bad_message");
  CHECK_THAT(e.at("message").get<std::string>(), Catch::Contains("\"players\""));
  create_room(v2, {{"game", "mancala-simple"}, {"players", 3}}, &state);
  CHECK(state.at("seats").size() == 3);
}

TEST_CASE("a member of version 1 and one of version 2 get Steere Tanbo's state in their names",
          "[server][rooms][versions]") {
  RoomsServer fx;
  ProtocolClient olga(fx.port()), ana(fx.port());
  olga.hello("Olga", "", std::nullopt);
  ana.hello("Ana");
  json old;
  const std::string room = create_room(olga,
                                       {{"game", "steere-tanbo"},
                                        {"seats", 2},
                                        {"options", {{"size", "7x7"}, {"first", 0}}},
                                        {"cpu", {{{"seat", 1}, {"level", "random"}}}}},
                                       &old);
  ana.send({{"type", "join"}, {"room", room}, {"as", "spectator"}});
  ana.expect("joined");
  json now = ana.expect("state");
  REQUIRE(now.at("version") == old.at("version"));
  CHECK(now.at("state").at("to_move") == 0);
  CHECK(now.at("state").at("colour_to_move") == "black");
  CHECK(old.at("state").at("to_move") == "black");
  CHECK_FALSE(old.at("state").contains("colour_to_move"));

  // Olga plays Black; the computer White. Every later state is the same for both but the names.
  olga.send({{"type", "act"},
             {"room", room},
             {"version", old.at("version")},
             {"action", old.at("legal")[0]}});
  const std::uint64_t v = old.at("version").get<std::uint64_t>() + 2;
  auto olds = states_until(olga, v), nows = states_until(ana, v);
  REQUIRE(olds.size() == 2);
  for (const auto& [version, s] : nows) {
    CAPTURE(version);
    CHECK(as_v1(s) == without_legal(olds.at(version)));
  }
  CHECK(olds.at(v).at("state").at("to_move") == "black");
  CHECK(nows.at(v - 1).at("state").at("to_move") == 1);
  CHECK(nows.at(v - 1).at("state").at("colour_to_move") == "white");
}

TEST_CASE("a member of version 1 and one of version 2 get Tanbo's states and events in their names",
          "[server][rooms][versions]") {
  RoomsServer fx;
  ProtocolClient ana(fx.port()), olga(fx.port());
  ana.hello("Ana");
  olga.hello("Olga", "", std::nullopt);
  json first;
  const std::string room = create_room(ana,
                                       {{"game", "tanbo"},
                                        {"options", {{"first", 0}}},
                                        {"cpu", {{{"seat", 1}, {"level", "random"}}}}},
                                       &first);
  olga.send({{"type", "join"}, {"room", room}, {"as", "spectator"}});
  olga.expect("joined");
  const std::uint64_t joined = olga.expect("state").at("version");
  REQUIRE(first.at("version") == joined);

  auto nows = play_tanbo(ana, room, first, 2);
  auto olds = states_until(olga, nows.rbegin()->first);
  int paddy_actions = 0;
  for (const auto& [version, s] : nows) {
    if (version <= joined) continue;
    CAPTURE(version);
    REQUIRE(olds.contains(version));
    const json& old = olds.at(version);
    CHECK(as_v1(s) == old);
    if (!s.at("pending").is_null())
      CHECK(s.at("state").at("to_move") == s.at("pending").at("seat"));
    CHECK_FALSE(old.at("state").contains("tokens_to_move"));
    CHECK_FALSE(has_event(old, "paddy_action"));
    paddy_actions += has_event(s, "paddy_action");
    // The core's action and the game's T4 action: one type each in version 2.
    for (const auto& e : s.at("events"))
      if (e.at("type") == "action") CHECK(e.contains("action"));
  }
  CHECK(paddy_actions >= 2);
}
