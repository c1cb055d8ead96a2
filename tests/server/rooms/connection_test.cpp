#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

// Plays the first legal action of the deciding seat; every member reads the new state.
void play_one(Table& t) {
  int seat = t.deciding();
  REQUIRE(seat >= 0);
  const json& legal = t.seen[std::size_t(seat)].at("legal");
  std::uint64_t v = t.state.at("version");
  t.at(seat).send({{"type", "act"}, {"room", t.room}, {"version", v}, {"action", legal[0]}});
  t.read_states(v + 1);
}

}  // namespace

TEST_CASE("a player who reconnects with the token gets the seat back, and resume the missed steps",
          "[server][rooms][reconnect]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  play_one(t);
  play_one(t);
  std::string token = t.tokens[1];
  std::string id1 = t.seen[1].at("seats")[1].at("player").at("id");
  std::uint64_t left_at = t.state.at("version");

  t.players[1].reset();  // the connection drops
  t.seen[0] = t.at(0).expect("state");
  t.state = t.spectators[0]->expect("state");
  CHECK(t.state.at("version") == left_at);  // a connection change is not a step
  CHECK(t.state.at("seats")[1].at("connected") == false);
  CHECK(t.state.at("seats")[1].at("player").at("id") == id1);

  // The game goes on while the seat is away, as far as seat 0 decides alone.
  int missed = 0;
  std::vector<json> missed_events;  // as the spectator saw each missed step
  while (t.deciding() == 0 && missed < 3) {
    std::uint64_t v = t.state.at("version");
    t.at(0).send(
        {{"type", "act"}, {"room", t.room}, {"version", v}, {"action", t.seen[0].at("legal")[0]}});
    t.seen[0] = t.at(0).expect("state");
    t.state = t.spectators[0]->expect("state");
    REQUIRE(t.state.at("version") == v + 1);
    missed_events.push_back(t.state.at("events"));
    ++missed;
  }
  REQUIRE(missed > 0);

  auto back = std::make_unique<ProtocolClient>(fx.port());
  auto welcome = back->hello("", token);
  CHECK(welcome.at("player").at("id") == id1);
  CHECK(welcome.at("token") == token);
  back->send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "player"}});
  auto joined = back->expect("joined");
  CHECK(joined.at("seat") == 1);
  auto state = back->expect("state");
  CHECK(state.at("seats")[1].at("connected") == true);
  CHECK(without_legal(state) == without_legal(t.at(0).expect("state")));
  t.spectators[0]->expect("state");

  back->send({{"type", "resume"}, {"id", 2}, {"room", t.room}, {"version", left_at}});
  auto resumed = back->expect("resumed");
  REQUIRE(resumed.at("steps").size() == std::size_t(missed));
  for (int i = 0; i < missed; ++i) {
    const json& step = resumed.at("steps")[std::size_t(i)];
    CHECK(step.at("version") == left_at + 1 + std::uint64_t(i));
    CHECK(step.at("events") == missed_events[std::size_t(i)]);  // the events the room broadcast
  }
  CHECK(resumed.at("version") == state.at("version"));
  CHECK(back->expect("state").at("version") == state.at("version"));

  CHECK(resumed.at("gap") == false);
  SECTION("a resume the room cannot answer with steps says so, then gets the full state") {
    back->send({{"type", "resume"}, {"id", 3}, {"room", t.room}, {"version", 999}});
    auto gap = back->expect("resumed");
    CHECK(gap.at("re") == 3);
    CHECK(gap.at("gap") == true);
    CHECK(gap.at("steps").empty());
    CHECK(gap.at("version") == state.at("version"));
    CHECK(back->expect("state").at("version") == state.at("version"));
  }
}

TEST_CASE("bad frames are answered or closed as documented while other clients are served",
          "[server][rooms][limits]") {
  Config c = rooms_config();
  c.ws_message_max = 4096;
  RoomsServer fx(c);
  ProtocolClient calm(fx.port());
  calm.hello();
  auto still_served = [&] {
    calm.send({{"type", "ping"}, {"id", "still"}});
    CHECK(calm.expect("pong").at("re") == "still");
  };
  ProtocolClient bad(fx.port());
  bad.hello();

  SECTION("a frame over the limit: too_large, then close 1009") {
    bad.send_raw("{\"type\":\"ping\",\"pad\":\"" + std::string(5000, 'x') + "\"}");
    CHECK(bad.expect("error").at("code") == "too_large");
    CHECK(bad.expect_close() == 1009);
    still_served();
  }
  SECTION("a frame over twice the limit: close 1009") {
    bad.send_raw(std::string(10000, 'x'));
    CHECK(bad.expect_close() == 1009);
    still_served();
  }
  SECTION("a binary frame: close 1003") {
    bad.send_binary("\x01\x02\x03");
    CHECK(bad.expect_close() == 1003);
    still_served();
  }
  SECTION("a text frame that is not UTF-8: close 1007") {
    bad.send_raw("{\"type\":\"ping\",\"x\":\"\xff\xfe\"}");
    CHECK(bad.expect_close() == 1007);
    still_served();
  }
  SECTION("garbage JSON: bad_json, and the connection stays") {
    bad.send_raw("}{ garbage");
    CHECK(bad.expect("error").at("code") == "bad_json");
    bad.send({{"type", "ping"}, {"id", 1}});
    CHECK(bad.expect("pong").at("re") == 1);
    still_served();
  }
}

TEST_CASE("a client that stops reading is dropped without delaying the others of its room",
          "[server][rooms][slow]") {
  Config c = rooms_config();
  c.ws_queue_max = 16;
  RoomsServer fx(c);
  Table t = Table::seat(fx.port(), "tanbo", 2, 1);
  ProtocolClient slow(fx.port());
  slow.hello();
  slow.send({{"type", "join"}, {"room", t.room}, {"as", "spectator"}});
  // The slow spectator is in the room (its own joined and state); it then asks for far more than
  // it reads.
  slow.expect("joined");
  CHECK(slow.expect("state").at("spectators") == 2);
  std::string request = json({{"type", "games"}}).dump();
  for (int i = 0; i < 4000; ++i) slow.send_raw(request);

  // Every move reaches both players, each version once and in order, within the client's read
  // bound: the slow reader holds nobody up.
  int moves = 0;
  for (; moves < 40 && t.state.at("status") == "playing"; ++moves) {
    const std::uint64_t v = t.play_first();
    t.catch_up(v + 1);  // throws on a skipped version
  }
  CHECK(moves > 10);
  CHECK(fx.server.server.context().counters.ws_dropped_slow.load() >= 1);
}

TEST_CASE("a connection left unread for longer than a read's bound is still served",
          "[server][rooms][slow]") {
  // The protocol walk-through leaves a device idle while the others talk; the server must keep
  // it (its idle limit is minutes) and the test client must not give it up between reads.
  RoomsServer fx;
  auto idle = guest(fx.port(), "Idle");
  std::this_thread::sleep_for(kClientTimeout + std::chrono::seconds(1));
  idle.client->send({{"type", "ping"}, {"id", "still-there"}});
  auto pong = idle.client->expect("pong");
  CHECK(pong.at("re") == "still-there");
  // A read with nothing to come still ends after its bound.
  const auto start = std::chrono::steady_clock::now();
  CHECK(idle.client->ws().read().got == WsClient::Got::failed);
  CHECK(std::chrono::steady_clock::now() - start >=
        kClientTimeout - std::chrono::milliseconds(100));
}
