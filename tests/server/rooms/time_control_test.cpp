// Time controls in a running server (docs/protocol.md, "Time controls"): a game clock with its
// increment and its loss on time, a 3-player game played on past a seat out of time,
// correspondence games that wait for their players, and my_games.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "tests/server/rooms/cpu_fixture.hpp"
#include "tests/server/support/clients.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

constexpr std::int64_t kSecond = 10;  // ms per timer second in these tests

ServiceOptions short_clocks() {
  ServiceOptions o = cpu_options();
  o.room.timer_second = std::chrono::milliseconds(kSecond);
  o.room.correspondence_day = std::chrono::milliseconds(600);
  o.room.takeover_grace = std::chrono::milliseconds(100);
  return o;
}

json clock(int base_s, int increment_s) {
  return {{"type", "clock"}, {"base_s", base_s}, {"increment_s", increment_s}};
}

struct TimedTable {
  std::vector<std::unique_ptr<ProtocolClient>> players;
  std::vector<std::string> ids;
  std::string room;
  std::vector<json> first;  // each player's first playing state
};

// `n` people at mancala-simple, seat 0 first, each holding the first playing state.
TimedTable seat(std::uint16_t port, int n, const json& timer) {
  TimedTable t;
  const char* names[] = {"Ana", "Ben", "Cid", "Dee"};
  for (int i = 0; i < n; ++i) {
    t.players.push_back(std::make_unique<ProtocolClient>(port));
    t.ids.push_back(t.players.back()->hello(names[i]).at("player").at("id"));
  }
  t.room = create_room(
      *t.players[0],
      {{"game", "mancala-simple"}, {"players", n}, {"options", {{"first", 0}}}, {"timer", timer}});
  for (int i = 1; i < n; ++i) {
    t.players[std::size_t(i)]->send(
        {{"type", "join"}, {"id", "j"}, {"room", t.room}, {"as", "player"}});
    t.players[std::size_t(i)]->expect("joined");
  }
  for (auto& p : t.players) {
    json s = p->expect("state");
    while (s.at("status") != "playing") s = p->expect("state");
    t.first.push_back(s);
  }
  return t;
}

// The next state `c` gets at a version above `v`.
json state_after(ProtocolClient& c, std::uint64_t v) {
  for (;;) {
    json m = c.next();
    if (m.at("type") == "state" && m.at("version").get<std::uint64_t>() > v) return m;
  }
}

json act(ProtocolClient& c, const json& state) {
  c.send({{"type", "act"},
          {"id", "a"},
          {"room", state.at("room")},
          {"version", state.at("version")},
          {"action", state.at("legal").at(0)}});
  return state_after(c, state.at("version"));
}

bool has_event(const json& state, const json& event) {
  for (const auto& e : state.at("events"))
    if (e == event) return true;
  return false;
}

json my_games(ProtocolClient& c) {
  c.send({{"type", "my_games"}, {"id", "g"}});
  for (;;) {
    json m = c.next_but_states();
    if (m.at("type") == "my_games") return m.at("games");
  }
}

// tanbo_time_outs_total{control="..."} as /metrics shows it.
double time_outs(std::uint16_t port, const std::string& control) {
  auto r = http_get(port, "/metrics");
  const std::string key = "tanbo_time_outs_total{control=\"" + control + "\"} ";
  auto at = r.body.find(key);
  return at == std::string::npos ? -1 : std::stod(r.body.substr(at + key.size()));
}

}  // namespace

TEST_CASE("a game clock: every seat's time in every state, the increment, the loss on time",
          "[server][rooms][timer][clock]") {
  CpuServer fx(short_clocks());
  const double time_outs_before = time_outs(fx.port(), "clock");
  REQUIRE(time_outs_before >= 0);
  TimedTable t = seat(fx.port(), 2, clock(30, 60));  // 300 ms each, 600 ms a decision
  const std::int64_t base = 30 * kSecond, increment = 60 * kSecond;
  ProtocolClient cleo(fx.port());
  cleo.hello("Cleo");
  cleo.send({{"type", "join"}, {"id", "w"}, {"room", t.room}, {"as", "spectator"}});
  cleo.expect("joined");
  const json watched = cleo.expect("state");

  const json& c0 = t.first[0].at("clock");
  CHECK(c0.at("control") == "clock");
  CHECK(c0.at("seat") == 0);
  CHECK(c0.at("increment") == increment);
  REQUIRE(c0.at("remaining").size() == 2);
  CHECK(c0.at("remaining")[1] == base);  // only the deciding seat's time runs
  CHECK(c0.at("remaining")[0] <= base);
  CHECK(c0.at("deadline").get<std::int64_t>() - c0.at("at").get<std::int64_t>() ==
        c0.at("left").get<std::int64_t>());
  CHECK(watched.at("clock").at("remaining").size() == 2);  // spectators see both clocks
  CHECK(watched.at("clock").at("seat") == 0);

  // Ana decides at once: charged what she took, credited the increment; Ben's time runs.
  const json after = act(*t.players[0], t.first[0]);
  const json& c1 = after.at("clock");
  CHECK(c1.at("seat") == 1);
  CHECK(c1.at("remaining")[0] > base);  // credited
  CHECK(c1.at("remaining")[0] <= base + increment);
  CHECK(c1.at("remaining")[1] <= base);

  // Ben never answers: he loses on time, and everyone is told, the spectator too.
  json end = state_after(*t.players[0], after.at("version"));
  CHECK(end.at("status") == "finished");
  CHECK(end.at("result") == json{{"places", {1, 2}}, {"reason", "time"}});
  CHECK(has_event(end, {{"type", "time"}, {"seat", 1}}));
  CHECK(end.at("clock").at("seat").is_null());
  CHECK(end.at("clock").at("remaining")[1] == 0);
  CHECK(end.at("clock").at("remaining")[0] == c1.at("remaining")[0]);
  CHECK(time_outs(fx.port(), "clock") == time_outs_before + 1);
  json seen = state_after(cleo, after.at("version"));
  while (seen.at("status") != "finished") seen = state_after(cleo, seen.at("version"));
  CHECK(seen.at("result").at("reason") == "time");

  // The time-out is in the record as its own action, and a replay ends the same way.
  const engine::Record record = fx.record(t.room);
  REQUIRE_FALSE(record.actions.empty());
  CHECK(record.actions.back().seat == 1);
  CHECK(record.actions.back().action == engine::kTimeout);
  auto replay = engine::replay(record);
  REQUIRE(replay.match);
  CHECK_FALSE(replay.refusal);
  CHECK(replay.match->result().reason == "time");
}

TEST_CASE("an answer that comes once the seat's time is out is refused, and the time-out stands",
          "[server][rooms][timer][clock]") {
  ServiceOptions o = short_clocks();
  CpuServer fx(o);
  TimedTable t = seat(fx.port(), 2, clock(30, 0));
  // Ana answers after her 300 ms: either the time-out already ended the game (stale version) or
  // her act finds the time out and is refused; either way she lost on time.
  std::this_thread::sleep_for(std::chrono::milliseconds(30 * kSecond + 100));
  t.players[0]->send({{"type", "act"},
                      {"id", "late"},
                      {"room", t.room},
                      {"version", 1},
                      {"action", t.first[0].at("legal").at(0)}});
  json answer = t.players[0]->next_but_states();
  REQUIRE(answer.at("type") == "error");
  CHECK((answer.at("code") == "game_over" || answer.at("code") == "stale_version"));
  json end = state_after(*t.players[1], 1);
  CHECK(end.at("result") == json{{"places", {2, 1}}, {"reason", "time"}});
}

TEST_CASE("in a 3-player game a seat out of time leaves and the others play on",
          "[server][rooms][timer][clock]") {
  CpuServer fx(short_clocks());
  // A clock long enough that Ben's move, made as soon as he reads his turn, is never late on a
  // loaded machine: only those who wait run out.
  TimedTable t = seat(fx.port(), 3, clock(100, 0));
  // Ana lets her time run out: she leaves (M5), Ben decides next.
  json s = state_after(*t.players[1], 1);
  CHECK(s.at("status") == "playing");
  CHECK(has_event(s, {{"type", "time"}, {"seat", 0}}));
  CHECK(s.at("pending").at("seat") == 1);
  CHECK(s.at("clock").at("seat") == 1);
  CHECK(s.at("clock").at("remaining")[0] == 0);
  CHECK(s.at("clock").at("remaining")[2] == 100 * kSecond);
  // Ben plays; Cid's time runs out too: one player is left, and the game ends on time.
  json after = act(*t.players[1], s);
  json end = after;
  while (end.at("status") != "finished") end = state_after(*t.players[1], end.at("version"));
  CHECK(end.at("result").at("reason") == "time");
  CHECK(end.at("result").at("places")[1] == 1);
  CHECK(has_event(end, {{"type", "time"}, {"seat", 2}}));
}

TEST_CASE(
    "correspondence: a seat away is never played by the computer, and loses when its days "
    "run out",
    "[server][rooms][timer][correspondence]") {
  CpuServer fx(short_clocks());  // a day of 600 ms, takeover after 100 ms
  TimedTable t = seat(fx.port(), 2, {{"type", "correspondence"}, {"days", 1}});
  const json& c = t.first[0].at("clock");
  CHECK(c.at("control") == "correspondence");
  CHECK(c.at("seat") == 0);
  CHECK_FALSE(c.contains("remaining"));
  CHECK(c.at("left") <= 600);
  t.players[1].reset();  // Ben goes away, far longer than the takeover grace
  json s = act(*t.players[0], t.first[0]);
  std::vector<json> seen{s};
  while (s.at("status") != "finished")
    seen.push_back(s = state_after(*t.players[0], s.at("version")));
  for (const auto& x : seen) CHECK(x.at("seats")[1].at("cpu") == false);
  CHECK(s.at("result") == json{{"places", {1, 2}}, {"reason", "time"}});
  CHECK(fx.actors(t.room) == std::vector<engine::Seat>{0, 1});  // Ana's move, Ben's time-out
  CHECK(time_outs(fx.port(), "correspondence") >= 1);
}

TEST_CASE("my_games and GET /api/players/{id}/games list each player's games and whose turn it is",
          "[server][rooms][timer][my_games]") {
  ServiceOptions o = short_clocks();
  o.room.correspondence_day = std::chrono::milliseconds(0);  // 86,400 timer seconds: 864 s here
  CpuServer fx(o);
  TimedTable t = seat(fx.port(), 2, {{"type", "correspondence"}, {"days", 3}});
  json ana = my_games(*t.players[0]), ben = my_games(*t.players[1]);
  REQUIRE(ana.size() == 1);
  REQUIRE(ben.size() == 1);
  CHECK(ana[0].at("room") == t.room);
  CHECK(ana[0].at("seat") == 0);
  CHECK(ana[0].at("your_turn") == true);
  CHECK(ana[0].at("timer") == json{{"type", "correspondence"}, {"days", 3}});
  CHECK(ana[0].at("deadline") == t.first[0].at("clock").at("deadline"));
  CHECK(ben[0].at("your_turn") == false);
  CHECK_FALSE(ben[0].contains("deadline"));

  auto waiting = [&](const std::string& id) {
    auto r = http_get(fx.port(), "/api/players/" + id + "/games?waiting=1");
    REQUIRE(r.status == 200);
    return json::parse(r.body).at("games");
  };
  CHECK(waiting(t.ids[0]).size() == 1);
  CHECK(waiting(t.ids[1]).empty());
  auto all = http_get(fx.port(), "/api/players/" + t.ids[1] + "/games");
  REQUIRE(all.status == 200);
  CHECK(json::parse(all.body).at("games").size() == 1);
  CHECK(http_get(fx.port(), "/api/players/" + t.ids[1] + "/games?waiting=maybe").status == 400);

  act(*t.players[0], t.first[0]);
  CHECK(my_games(*t.players[0])[0].at("your_turn") == false);
  CHECK(my_games(*t.players[1])[0].at("your_turn") == true);
  CHECK(waiting(t.ids[1]).size() == 1);
  CHECK(waiting(t.ids[0]).empty());
}
