#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "server/wall_clock.hpp"
#include "tests/server/rooms/cpu_fixture.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

constexpr std::int64_t kSecond = 10;          // ms per timer second in these tests
constexpr std::int64_t kTurn = 30 * kSecond;  // `timer: 30`

ServiceOptions short_clocks() {
  ServiceOptions o = cpu_options();
  o.room.timer_second = std::chrono::milliseconds(kSecond);
  o.room.takeover_grace = std::chrono::milliseconds(200);
  return o;
}

struct Pair {
  std::unique_ptr<ProtocolClient> p0, p1;
  std::string room;
  json token1;
  json s0, s1;  // each one's last state
};

// Two people at mancala-simple, seat 0 first; both hold the starting state.
Pair seat_pair(std::uint16_t port, json create) {
  Pair p;
  p.p0 = std::make_unique<ProtocolClient>(port);
  p.p0->hello("Ana");
  create["game"] = "mancala-simple";
  create["players"] = 2;
  create["options"] = {{"first", 0}};
  p.room = create_room(*p.p0, create);
  p.p1 = std::make_unique<ProtocolClient>(port);
  p.token1 = p.p1->hello("Ben").at("token");
  p.p1->send({{"type", "join"}, {"id", 1}, {"room", p.room}, {"as", "player"}});
  p.p1->expect("joined");
  p.s1 = p.p1->expect("state");
  p.s0 = p.p0->expect("state");
  return p;
}

}  // namespace

TEST_CASE("a timed room shows the deciding seat's clock, and the CPU decides when it runs out",
          "[cpu][server][rooms][timer]") {
  CpuServer fx(short_clocks());
  const std::int64_t before = wall_ms();
  Pair p = seat_pair(fx.port(), {{"timer", 30}});
  const std::int64_t after = wall_ms();
  REQUIRE(p.s0.at("status") == "playing");
  REQUIRE(p.s0.contains("clock"));
  const json& clock = p.s0.at("clock");

  SECTION("the clock names the deciding seat, its deadline from the start, and the time left") {
    CHECK(clock.at("seat") == p.s0.at("pending").at("seat"));
    CHECK(clock.at("seat") == 0);
    const std::int64_t deadline = clock.at("deadline");
    CHECK(deadline >= before + kTurn);
    CHECK(deadline <= after + kTurn);
    const std::int64_t left = clock.at("left");
    CHECK(left >= 0);
    CHECK(left <= kTurn);
    CHECK(p.s1.at("clock") == clock);  // one buffer for everyone
    CHECK(p.s0.at("seats")[0].at("cpu") == false);
  }
  SECTION("nobody acts: each expiry plays one legal action for the seat that was deciding") {
    std::vector<engine::Seat> deciding;
    json s = p.s0;
    for (int k = 0; k < 3; ++k) {
      deciding.push_back(s.at("pending").at("seat").get<int>());
      const std::int64_t deadline = s.at("clock").at("deadline");
      json next = p.p0->expect("state");
      p.p1->expect("state");
      CHECK(wall_ms() >= deadline);
      REQUIRE(next.at("version") == s.at("version").get<std::uint64_t>() + 1);
      if (next.at("status") != "playing") break;
      CHECK(next.at("clock").at("seat") == next.at("pending").at("seat"));
      CHECK(next.at("clock").at("deadline") >= deadline + kTurn);
      CHECK(next.at("seats")[0].at("cpu") == false);  // a timeout is no takeover
      s = std::move(next);
    }
    CHECK(fx.actors(p.room) == deciding);
    auto replay = engine::replay(fx.record(p.room));
    REQUIRE(replay.match);
    CHECK(replay.failed_at == std::string::npos);
    CHECK(replay.match->game().state_json() == s.at("state"));
  }
  SECTION("an action in time stops the clock: the next decision gets a fresh one") {
    p.p0->send({{"type", "act"},
                {"room", p.room},
                {"version", p.s0.at("version")},
                {"action", p.s0.at("legal")[0]}});
    json next = p.p0->expect("state");
    p.p1->expect("state");
    REQUIRE(next.at("version") == 2);
    CHECK(next.at("clock").at("deadline") > clock.at("deadline").get<std::int64_t>() - kTurn);
    CHECK(fx.actors(p.room) == std::vector<engine::Seat>{0});
  }
}

TEST_CASE("an untimed room shows no clock and waits for its players",
          "[cpu][server][rooms][timer]") {
  CpuServer fx(short_clocks());
  Pair p = seat_pair(fx.port(), json::object());
  CHECK_FALSE(p.s0.contains("clock"));
  std::this_thread::sleep_for(std::chrono::milliseconds(3 * kTurn));
  CHECK(fx.actors(p.room).empty());
}

TEST_CASE("takeover: a player away past the grace is played by the CPU, and gets the seat back",
          "[cpu][server][rooms][takeover]") {
  CpuServer fx(short_clocks());
  Pair p = seat_pair(fx.port(), json::object());
  const std::string id1 = p.s0.at("seats")[1].at("player").at("id");
  p.p1.reset();  // the connection drops

  json s = p.p0->expect("state");
  CHECK(s.at("seats")[1].at("connected") == false);
  CHECK(s.at("seats")[1].at("cpu") == false);  // not before the grace
  s = p.p0->expect("state");                   // the grace is over: same version, CPU seat
  CHECK(s.at("version") == 1);
  CHECK(s.at("seats")[1].at("cpu") == true);
  CHECK(s.at("seats")[1].at("level") == "greedy");
  CHECK(s.at("seats")[1].at("player").at("id") == id1);  // still the player's seat

  // Seat 0 plays; seat 1's decisions are the CPU's.
  int cpu_steps = 0;
  while (s.at("status") == "playing" && cpu_steps < 2) {
    const std::uint64_t v = s.at("version");
    const bool mine = s.at("pending").at("seat") == 0;
    if (mine)
      p.p0->send({{"type", "act"}, {"room", p.room}, {"version", v}, {"action", s.at("legal")[0]}});
    json next = p.p0->expect("state");
    REQUIRE(next.at("version") == v + 1);
    cpu_steps += !mine;
    s = std::move(next);
  }
  REQUIRE(cpu_steps == 2);
  REQUIRE(s.at("status") == "playing");
  auto actors = fx.actors(p.room);
  CHECK(std::count(actors.begin(), actors.end(), 1) == 2);

  // Back with the token: the seat is the player's again.
  p.p1 = std::make_unique<ProtocolClient>(fx.port());
  p.p1->hello("", p.token1);
  p.p1->send({{"type", "join"}, {"id", 2}, {"room", p.room}, {"as", "player"}});
  CHECK(p.p1->expect("joined").at("seat") == 1);
  json s1 = p.p1->expect("state");
  CHECK(s1.at("seats")[1].at("cpu") == false);
  CHECK(s1.at("seats")[1].at("connected") == true);
  const std::uint64_t back_at = s1.at("version");
  for (;;) {  // seat 0 catches up with the same message
    s = p.p0->expect("state");
    if (s.at("seats")[1].at("connected") == true) break;
  }
  REQUIRE(without_legal(s) == without_legal(s1));

  // A decision in flight when the player came back may still be the CPU's; the next is theirs.
  bool played = false;
  for (int guard = 0; guard < 200 && !played && s.at("status") == "playing"; ++guard) {
    const std::uint64_t v = s.at("version");
    const int seat = s.at("pending").at("seat");
    if (seat == 0) {
      p.p0->send({{"type", "act"}, {"room", p.room}, {"version", v}, {"action", s.at("legal")[0]}});
    } else if (v > back_at) {
      REQUIRE(s1.contains("legal"));
      std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the CPU would be done
      p.p1->send(
          {{"type", "act"}, {"room", p.room}, {"version", v}, {"action", s1.at("legal")[0]}});
      played = true;
    }
    s = p.p0->expect("state");
    s1 = p.p1->expect("state");  // an error (stale_version: the CPU moved) fails here
    REQUIRE(s.at("version") == v + 1);
    REQUIRE(s1.at("version") == v + 1);
  }
  CHECK(played);
  auto after = fx.actors(p.room);
  CHECK(after.back() == 1);
}
