// docs/protocol.md, "Transport and envelope": every request that carries an id gets exactly one
// reply naming it as `re` (its answer or an error), rate_limited included; pushes name none.
#include <catch2/catch.hpp>

#include <set>

#include "engine/core/rng.hpp"
#include "tests/server/rooms/cpu_fixture.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

bool names(const json& m, const json& id) { return m.contains("re") && m.at("re") == id; }

// Sends `request` with `id` and returns the one reply naming it. What arrives before it goes
// into `pushes` (it must name no request); a second reply naming `id` before the pong of a ping
// sent right after fails the test.
json answer(ProtocolClient& c, json request, const json& id, std::vector<json>* pushes = nullptr) {
  request["id"] = id;
  c.send(request);
  json reply;
  for (;;) {
    json m = c.next();
    if (names(m, id)) {
      reply = std::move(m);
      break;
    }
    INFO(m.dump());
    CHECK_FALSE(m.contains("re"));
    if (pushes) pushes->push_back(std::move(m));
  }
  const json sync = "sync-" + id.dump();
  c.send({{"type", "ping"}, {"id", sync}});
  for (;;) {
    json m = c.next();
    if (names(m, sync)) break;
    INFO(m.dump());
    CHECK_FALSE(names(m, id));
    if (pushes) pushes->push_back(std::move(m));
  }
  return reply;
}

// The versions of the states among `pushes`, in order.
std::vector<std::uint64_t> versions(const std::vector<json>& pushes) {
  std::vector<std::uint64_t> out;
  for (const auto& m : pushes)
    if (m.at("type") == "state") out.push_back(m.at("version"));
  return out;
}

}  // namespace

TEST_CASE("every request with an id gets exactly one reply naming it, its answer or an error",
          "[server][rooms][protocol]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  auto& ana = t.at(0);
  auto& ben = t.at(1);
  auto& spectator = *t.spectators[0];
  const std::uint64_t v = t.state.at("version");
  REQUIRE(t.deciding() == 0);
  const json legal = t.seen[0].at("legal");

  SECTION("the lobby: games, rooms, watch_lobby and unwatch_lobby") {
    CHECK(answer(ana, {{"type", "games"}}, 1).at("type") == "games");
    CHECK(answer(ana, {{"type", "rooms"}}, 2).at("type") == "rooms");
    CHECK(answer(ana, {{"type", "watch_lobby"}}, "w") == json{{"type", "ok"}, {"re", "w"}});
    CHECK(answer(ana, {{"type", "unwatch_lobby"}}, "u") == json{{"type", "ok"}, {"re", "u"}});
    CHECK(answer(ana, {{"type", "hello"}}, 3).at("code") == "bad_message");  // a second hello
  }
  SECTION("an accepted act: ok with the version it made, after the state of that version") {
    std::vector<json> pushes;
    json ok = answer(ana, {{"type", "act"}, {"room", t.room}, {"version", v}, {"action", legal[0]}},
                     8, &pushes);
    CHECK(ok == json{{"type", "ok"}, {"re", 8}, {"room", t.room}, {"version", v + 1}});
    CHECK(versions(pushes) == std::vector<std::uint64_t>{v + 1});
    SECTION("a refused act: its error, and nothing else") {
      json e =
          answer(ana, {{"type", "act"}, {"room", t.room}, {"version", v}, {"action", legal[0]}}, 9);
      CHECK(e.at("code") == "stale_version");
    }
  }
  SECTION("resume: resumed with its steps, or with gap, then the state") {
    std::vector<json> pushes;
    json r = answer(spectator, {{"type", "resume"}, {"room", t.room}, {"version", v}}, 11, &pushes);
    CHECK(r.at("type") == "resumed");
    CHECK(r.at("gap") == false);
    CHECK(versions(pushes) == std::vector<std::uint64_t>{v});
    pushes.clear();
    r = answer(spectator, {{"type", "resume"}, {"room", t.room}, {"version", v + 50}}, 12, &pushes);
    CHECK(r.at("type") == "resumed");
    CHECK(r.at("gap") == true);
    CHECK(versions(pushes) == std::vector<std::uint64_t>{v});
  }
  SECTION("leave and join again") {
    CHECK(answer(spectator, {{"type", "leave"}, {"room", t.room}}, 13).at("type") == "left");
    json j = answer(spectator, {{"type", "join"}, {"room", t.room}, {"as", "spectator"}}, 14);
    CHECK(j.at("type") == "joined");
  }
  SECTION("resign, then rematch: each answered ok, a second rematch changes nothing") {
    std::vector<json> pushes;
    json ok = answer(ana, {{"type", "resign"}, {"room", t.room}}, "r1", &pushes);
    CHECK(ok == json{{"type", "ok"}, {"re", "r1"}, {"room", t.room}, {"version", v + 1}});
    CHECK(versions(pushes) == std::vector<std::uint64_t>{v + 1});
    CHECK(answer(ana, {{"type", "resign"}, {"room", t.room}}, "r2").at("code") == "game_over");
    ben.expect("state");

    pushes.clear();
    ok = answer(ana, {{"type", "rematch"}, {"room", t.room}}, "m1", &pushes);
    CHECK(ok.at("type") == "ok");
    CHECK(ok.at("version") == v + 1);
    REQUIRE(pushes.size() == 1);  // the state showing who asked
    CHECK(pushes[0].at("rematch") == json{0});
    CHECK(ben.expect("state").at("rematch") == json{0});
    pushes.clear();
    CHECK(answer(ana, {{"type", "rematch"}, {"room", t.room}}, "m2", &pushes).at("type") == "ok");
    CHECK(pushes.empty());
    std::vector<json> ben_saw;
    answer(ben, {{"type", "ping"}}, "nothing new", &ben_saw);
    CHECK(ben_saw.empty());

    pushes.clear();
    ok = answer(ben, {{"type", "rematch"}, {"room", t.room}}, "m3", &pushes);
    CHECK(ok.at("version") == v + 2);  // the new game's start is a step
    CHECK(versions(pushes) == std::vector<std::uint64_t>{v + 2});
  }
  SECTION("create: created naming the seat, then the state, and no joined") {
    std::vector<json> pushes;
    json c = answer(ana, {{"type", "create"}, {"game", "tsoro"}}, "c", &pushes);
    CHECK(c.at("type") == "created");
    CHECK(c.at("seat") == 0);
    // `created` waits for the creator's seat to be stored, then leaves with its state.
    REQUIRE(pushes.size() == 1);
    CHECK(pushes[0].at("type") == "state");
    SECTION("fill_cpu: ok, after the state of the game it starts") {
      pushes.clear();
      json ok = answer(ana, {{"type", "fill_cpu"}, {"room", c.at("room")}, {"level", "random"}},
                       "f", &pushes);
      CHECK(ok.at("type") == "ok");
      CHECK(ok.at("version") == 1);
      REQUIRE_FALSE(versions(pushes).empty());
      CHECK(versions(pushes).front() == 1);
    }
  }
}

TEST_CASE("a seat that has left a 3-player game cannot resign or act again, and nothing changes",
          "[server][rooms][mancala-simple]") {
  CpuServer fx;
  std::vector<std::unique_ptr<ProtocolClient>> p;
  for (int i = 0; i < 3; ++i) {
    p.push_back(std::make_unique<ProtocolClient>(fx.port()));
    p.back()->hello("P" + std::to_string(i));
  }
  std::string room =
      create_room(*p[0], {{"game", "mancala-simple"}, {"players", 3}, {"options", {{"first", 0}}}});
  for (int i = 1; i < 3; ++i) {
    p[std::size_t(i)]->send({{"type", "join"}, {"room", room}, {"as", "player"}});
    p[std::size_t(i)]->expect("joined");
  }
  json s;
  for (auto& c : p) {
    do s = c->expect("state");
    while (s.at("version") != 1);
  }
  REQUIRE(s.at("status") == "playing");

  std::vector<json> pushes;
  json ok = answer(*p[2], {{"type", "resign"}, {"room", room}}, 1, &pushes);
  REQUIRE(ok.at("version") == 2);
  REQUIRE(versions(pushes) == std::vector<std::uint64_t>{2});
  json after;
  for (int i = 0; i < 2; ++i) {
    do after = p[std::size_t(i)]->expect("state");
    while (after.at("version") != 2);
  }
  REQUIRE(after.at("status") == "playing");  // two seats play on (M5)
  for (int k = 0; k < 5; ++k) {
    json e = answer(*p[2], {{"type", "resign"}, {"room", room}}, 10 + k);
    CHECK(e.at("code") == "not_in_game");
  }
  json e = answer(*p[2],
                  {{"type", "act"}, {"room", room}, {"version", 2}, {"action", {{"hole", 0}}}}, 20);
  CHECK(e.at("code") == "not_in_game");
  // The two still in play move on at the version they saw: nothing was stored or broadcast.
  int mover = after.at("pending").at("seat");
  json moved = answer(*p[std::size_t(mover)],
                      {{"type", "act"}, {"room", room}, {"version", 2}, {"action", {{"hole", 0}}}},
                      21, &pushes);
  CHECK(moved.at("type") == "ok");
  CHECK(moved.at("version") == 3);
  int resignations = 0;
  for (const auto& [seat, action] : fx.record(room).actions) resignations += action == "resign";
  CHECK(resignations == 1);
}

TEST_CASE("moves never spend the rate limit, floods of anything else still do",
          "[server][rooms][limits]") {
  // A tight bucket makes the rule exact: five messages, then one a second.
  Config c = rooms_config();
  c.rate_burst = 5;
  c.rate_per_second = 1;
  c.rate_strikes = 1000;
  RoomsServer fx(c);
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);  // 21 columns: a long game
  std::uint64_t v = t.state.at("version");
  int moves = 0;
  while (t.state.at("status") == "playing" && moves < 60) {
    int seat = t.deciding();
    const json& legal = t.seen[std::size_t(seat)].at("legal");
    t.at(seat).send(
        {{"type", "act"}, {"id", moves}, {"room", t.room}, {"version", v}, {"action", legal[0]}});
    t.read_states(++v);
    CHECK(t.at(seat).expect("ok").at("re") == moves);  // never rate_limited
    ++moves;
  }
  REQUIRE(moves > 10);
  SECTION("a burst of stale acts is limited, each refusal naming its request") {
    int seat = std::max(0, t.deciding());
    for (int i = 0; i < 10; ++i)
      t.at(seat).send({{"type", "act"},
                       {"id", 100 + i},
                       {"room", t.room},
                       {"version", 0},
                       {"action", {{"hole", 0}}}});
    // A dropped request is answered at once, a stale one by the room: the order may differ.
    int limited = 0;
    std::multiset<int> answered;
    for (int i = 0; i < 10; ++i) {
      json e = t.at(seat).expect("error");
      answered.insert(e.at("re").get<int>());
      limited += e.at("code") == "rate_limited";
    }
    std::multiset<int> sent;
    for (int i = 0; i < 10; ++i) sent.insert(100 + i);
    CHECK(answered == sent);
    CHECK(limited >= 4);
  }
}

TEST_CASE("at the default limits a client moving as fast as the server answers plays every game",
          "[server][rooms][limits][game]") {
  Config c = rooms_config();
  c.rate_burst = 20;  // the defaults (docs/protocol.md, "Limits")
  c.rate_per_second = 10;
  c.rate_strikes = 50;
  RoomsServer fx(c);
  auto game = GENERATE(as<std::string>{}, "tanbo", "steere-tanbo", "mancala-simple", "tsoro");
  CAPTURE(game);
  Table t = Table::seat(fx.port(), game, 2, 0);
  tanbo_server::engine::FastRng pick(7);
  std::uint64_t v = t.state.at("version");
  int moves = 0;
  while (t.state.at("status") == "playing" && moves < 400) {
    int seat = t.deciding();
    const json& legal = t.seen[std::size_t(seat)].at("legal");
    json action = legal[pick.below(std::uint32_t(legal.size()))];
    t.at(seat).send(
        {{"type", "act"}, {"id", moves}, {"room", t.room}, {"version", v}, {"action", action}});
    t.read_states(++v);
    CHECK(t.at(seat).expect("ok").at("re") == moves);
    ++moves;
  }
  CHECK(moves > 0);
}
