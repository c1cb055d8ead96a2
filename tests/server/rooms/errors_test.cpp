#include <catch2/catch.hpp>

#include <numeric>
#include <set>
#include <thread>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

json error_for(ProtocolClient& c, const json& request) {
  c.send(request);
  return c.expect("error");
}

// The room exactly as before: resume at its version gives no step and the same state.
void check_unchanged(Table& t, ProtocolClient& spectator) {
  spectator.send(
      {{"type", "resume"}, {"id", "r"}, {"room", t.room}, {"version", t.state.at("version")}});
  auto resumed = spectator.expect("resumed");
  CHECK(resumed.at("steps").empty());
  CHECK(spectator.expect("state") == t.state);
}

}  // namespace

TEST_CASE("every error code is answered with its code and leaves the room as it was",
          "[server][rooms][errors]") {
  Config c = rooms_config();
  c.max_rooms = 2;
  RoomsServer fx(c);
  Table t = Table::seat(fx.port(), "tanbo", 2);
  REQUIRE(t.state.at("status") == "playing");
  auto& spectator = *t.spectators[0];
  std::uint64_t v = t.state.at("version");
  int seat = t.deciding();
  REQUIRE(seat >= 0);
  auto& mover = t.at(seat);
  auto& other = t.at(1 - seat);
  json legal = t.seen[std::size_t(seat)].at("legal");
  json act = {{"type", "act"}, {"id", 7}, {"room", t.room}, {"version", v}, {"action", legal[0]}};

  SECTION("bad_json, bad_message, unknown_type: the connection stays usable") {
    mover.send_raw("{\"type\": \"ping\",");
    auto e = mover.expect("error");
    CHECK(e.at("code") == "bad_json");
    CHECK(error_for(mover, {{"type", "join"}, {"id", 1}}).at("code") == "bad_message");
    auto u = error_for(mover, {{"type", "fly"}, {"id", 2}});
    CHECK(u.at("code") == "unknown_type");
    CHECK(u.at("re") == 2);
    mover.send({{"type", "ping"}, {"id", 3}});
    CHECK(mover.expect("pong").at("re") == 3);
    check_unchanged(t, spectator);
  }
  SECTION("not_hello before hello, bad_token for an unknown token, bad_name") {
    ProtocolClient stranger(fx.port());
    CHECK(error_for(stranger, {{"type", "ping"}, {"id", 1}}).at("code") == "not_hello");
    CHECK(error_for(stranger, {{"type", "hello"}, {"id", 2}, {"token", "nope"}}).at("code") ==
          "bad_token");
    auto bad = error_for(stranger, {{"type", "hello"}, {"id", 3}, {"name", "\x01"}});
    CHECK(bad.at("code") == "bad_name");
    CHECK(bad.at("re") == 3);
    // The rule holds after a refusal: the same connection may say hello with a good name.
    CHECK(stranger.hello("D'Artagnan").at("player").at("name") == "D'Artagnan");
  }
  SECTION("no_such_room, room_full, seat_taken") {
    ProtocolClient stranger(fx.port());
    stranger.hello("Stranger");
    CHECK(error_for(stranger, {{"type", "join"}, {"id", 1}, {"room", "r-none"}, {"as", "player"}})
              .at("code") == "no_such_room");
    CHECK(error_for(stranger, {{"type", "join"}, {"id", 2}, {"room", t.room}, {"as", "player"}})
              .at("code") == "room_full");
    CHECK(error_for(stranger,
                    {{"type", "join"}, {"id", 3}, {"room", t.room}, {"as", "player"}, {"seat", 0}})
              .at("code") == "seat_taken");
    check_unchanged(t, spectator);
  }
  SECTION("a spectator's or a stranger's act is not_seated") {
    auto e = error_for(spectator, act);
    CHECK(e.at("code") == "not_seated");
    CHECK(e.at("re") == 7);
    ProtocolClient stranger(fx.port());
    stranger.hello();
    CHECK(error_for(stranger, act).at("code") == "not_seated");
    CHECK(error_for(stranger, {{"type", "resign"}, {"room", t.room}}).at("code") == "not_seated");
    check_unchanged(t, spectator);
  }
  SECTION("acting for the other seat is not_your_turn") {
    CHECK(error_for(other, act).at("code") == "not_your_turn");
    check_unchanged(t, spectator);
  }
  SECTION("an old or future version is stale_version") {
    json stale = act;
    stale["version"] = v - 1;
    CHECK(error_for(mover, stale).at("code") == "stale_version");
    stale["version"] = v + 1;
    CHECK(error_for(mover, stale).at("code") == "stale_version");
    check_unchanged(t, spectator);
  }
  SECTION("an action not in the legal list is illegal_action") {
    json bad = act;
    bad["action"] = {{"no_such_member", 99}};
    CHECK(error_for(mover, bad).at("code") == "illegal_action");
    check_unchanged(t, spectator);
  }
  SECTION("after the game ends, act and resign are game_over") {
    other.send({{"type", "resign"}, {"room", t.room}});
    t.read_states(v + 1);
    REQUIRE(t.state.at("status") == "finished");
    CHECK(error_for(mover, act).at("code") == "game_over");
    CHECK(error_for(mover, {{"type", "resign"}, {"room", t.room}}).at("code") == "game_over");
    check_unchanged(t, spectator);
  }
  SECTION("rematch during the game is not_finished") {
    CHECK(error_for(mover, {{"type", "rematch"}, {"room", t.room}}).at("code") == "not_finished");
    check_unchanged(t, spectator);
  }
  SECTION("bad_option names every refused field") {
    auto e = error_for(mover, {{"type", "create"},
                               {"id", 4},
                               {"game", "mancala-simple"},
                               {"options", {{"colour", "red"}, {"first", 9}}}});
    CHECK(e.at("code") == "bad_option");
    std::set<std::string> fields;
    for (const auto& p : e.at("problems")) fields.insert(p.at("field"));
    CHECK(fields.count("colour") == 1);
    CHECK(fields.count("first") == 1);
    CHECK(error_for(mover, {{"type", "create"}, {"game", "chess"}}).at("code") == "bad_option");
    CHECK(error_for(mover, {{"type", "create"}, {"game", "tanbo"}, {"players", 7}}).at("code") ==
          "bad_option");
  }
  SECTION("too_many_rooms beyond the per-identity limit of unfinished rooms") {
    // Player 0 created the table's room: one more is allowed, the third is refused.
    auto& p0 = t.at(0);
    p0.send({{"type", "create"}, {"id", 5}, {"game", "tanbo"}});
    p0.expect("created");
    p0.expect("state");
    CHECK(error_for(p0, {{"type", "create"}, {"id", 6}, {"game", "tanbo"}}).at("code") ==
          "too_many_rooms");
  }
  SECTION("after every refusal the same action is still accepted") {
    json bad = act;
    bad["version"] = v + 5;
    CHECK(error_for(mover, bad).at("code") == "stale_version");
    mover.send(act);
    t.read_states(v + 1);
    CHECK(t.state.at("status") != "waiting");
  }
}

TEST_CASE("rate_limited answers between accepted messages never close the connection",
          "[server][rooms][limits]") {
  Config c = rooms_config();
  c.rate_burst = 2;
  c.rate_per_second = 2;  // a token each 500 ms: six pings sent at once overflow the bucket
  c.rate_strikes = 5;
  RoomsServer fx(c);
  ProtocolClient bot(fx.port());
  bot.hello();
  int limited = 0, id = 0;
  auto round = [&] {
    int wait_ms = 0;
    const int first = id;
    for (int i = 0; i < 6; ++i) bot.send({{"type", "ping"}, {"id", id++}});
    for (int i = first; i < id; ++i) {
      auto m = bot.next();
      REQUIRE(m.at("re") == i);
      if (m.at("type") == "error") {
        REQUIRE(m.at("code") == "rate_limited");
        wait_ms = m.at("retry_ms").get<int>();
        ++limited;
      }
    }
    // Waits as the last refusal said (and a little more): the next message is taken.
    std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms + 100));
  };
  for (int i = 0; i < 3; ++i) round();
  CHECK(limited > 5);  // more than the strikes allowed, but never that many in a row
  bot.send({{"type", "ping"}, {"id", "still"}});
  CHECK(bot.expect("pong").at("re") == "still");
}

TEST_CASE("a flood of messages is rate_limited, then closed 1008, while others are served",
          "[server][rooms][limits]") {
  Config c = rooms_config();
  c.rate_burst = 5;
  c.rate_per_second = 0;  // no refill: the count below holds however slowly the test runs
  c.rate_strikes = 10;
  RoomsServer fx(c);
  ProtocolClient flooder(fx.port());
  ProtocolClient calm(fx.port());
  flooder.hello();
  calm.hello();
  for (int i = 0; i < 40; ++i) flooder.send({{"type", "ping"}, {"id", i}});
  int pongs = 0, limited = 0;
  std::vector<int> answered;  // the re of every reply, in order
  std::uint16_t code = 0;
  for (;;) {
    auto f = flooder.ws().read();
    if (f.got != WsClient::Got::text) {
      REQUIRE(f.got == WsClient::Got::closed);
      code = flooder.ws().close_code();
      break;
    }
    auto m = json::parse(f.text);
    CHECK(schema_problems(m).empty());
    if (m.at("type") == "pong") ++pongs;
    if (m.at("type") == "error" && m.at("code") == "rate_limited") ++limited;
    answered.push_back(m.at("re").get<int>());
  }
  CHECK(pongs == 4);  // the burst, less the hello's token
  CHECK(limited == 10);
  CHECK(code == 1008);
  // Each request up to the close is answered once, in order, a dropped one by its own id.
  std::vector<int> expected(answered.size());
  std::iota(expected.begin(), expected.end(), 0);
  CHECK(answered == expected);
  calm.send({{"type", "ping"}, {"id", 1}});
  CHECK(calm.expect("pong").at("re") == 1);
}
