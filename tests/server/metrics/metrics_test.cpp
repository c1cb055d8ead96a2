#include <catch2/catch.hpp>

#include <map>
// GCC 12 with ASan misreads std::function's move inside <regex> as maybe-uninitialized; the
// warning is in the standard library's code, not ours.
#pragma GCC diagnostic push
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#pragma GCC diagnostic pop
#include <sstream>
#include <string>

#include "tests/server/rooms/cpu_fixture.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

using Samples = std::map<std::string, double>;  // `name{labels}` -> value

// A strict reader of the Prometheus text format 0.0.4: every line a comment (# HELP, # TYPE) or
// one sample; anything else fails the test.
Samples parse_exposition(const std::string& text) {
  static const std::regex sample(
      R"(^([a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="[^"]*",?)*\})?) ([-+]?([0-9.eE+-]+|Inf|NaN))$)");
  static const std::regex comment(R"(^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*$)");
  Samples out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    INFO(line);
    std::smatch m;
    if (line[0] == '#') {
      REQUIRE(std::regex_match(line, comment));
      continue;
    }
    REQUIRE(std::regex_match(line, m, sample));
    out[m[1].str()] = std::stod(m[4].str());
  }
  return out;
}

Samples scrape(std::uint16_t port) {
  auto r = http_get(port, "/metrics");
  REQUIRE(r.status == 200);
  CHECK_THAT(r.content_type, Catch::StartsWith("text/plain; version=0.0.4"));
  return parse_exposition(r.body);
}

double at(const Samples& s, const std::string& key) {
  auto it = s.find(key);
  INFO(key);
  REQUIRE(it != s.end());
  return it->second;
}

}  // namespace

TEST_CASE("/metrics parses as Prometheus text and its counters rise by what a game did",
          "[net][metrics]") {
  RoomsServer fx;
  const std::string playing = R"(tanbo_rooms{game="mancala-simple",status="playing"})";
  const std::string finished = R"(tanbo_rooms{game="mancala-simple",status="finished"})";
  const std::string actions = "tanbo_actions_accepted_total";
  const std::string stale = R"(tanbo_rejected_messages_total{code="stale_version"})";
  const std::string bad_json = R"(tanbo_rejected_messages_total{code="bad_json"})";
  const std::string broadcasts = "tanbo_broadcast_latency_seconds_count";
  const std::string commits = "tanbo_commit_latency_seconds_count";

  Samples before = scrape(fx.port());
  CHECK(at(before, "tanbo_connections") == 0);
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  Samples started = scrape(fx.port());
  CHECK(at(started, playing) - at(before, playing) == 1);
  CHECK(at(started, "tanbo_connections") == 3);
  CHECK(at(started, "tanbo_connections_opened_total") == 3);

  // One stale act and one frame that is not JSON: two rejections, by code.
  t.at(t.deciding()).send({{"type", "act"}, {"room", t.room}, {"version", 0}, {"action", 0}});
  CHECK(t.at(t.deciding()).expect("error").at("code") == "stale_version");
  t.spectators[0]->send_raw("{oops");
  CHECK(t.spectators[0]->expect("error").at("code") == "bad_json");

  int moves = 0;
  while (t.state.at("status") == "playing") {
    const std::uint64_t v = t.play_first();
    t.read_states(v + 1);
    ++moves;
  }
  REQUIRE(moves > 0);
  Samples after = scrape(fx.port());

  SECTION("actions, rejections and rooms by game and status") {
    CHECK(at(after, actions) - at(before, actions) == moves);
    CHECK(at(after, stale) - at(before, stale) == 1);
    CHECK(at(after, bad_json) - at(before, bad_json) == 1);
    CHECK(at(after, R"(tanbo_rejected_messages_total{code="illegal_action"})") ==
          at(before, R"(tanbo_rejected_messages_total{code="illegal_action"})"));
    CHECK(at(after, playing) - at(before, playing) == 0);
    CHECK(at(after, finished) - at(before, finished) == 1);
  }
  SECTION("latency histograms: one broadcast and at least one commit per move") {
    CHECK(at(after, broadcasts) - at(before, broadcasts) >= moves);
    CHECK(at(after, commits) - at(before, commits) >= moves);
    CHECK(at(after, R"(tanbo_broadcast_latency_seconds_bucket{le="+Inf"})") ==
          at(after, broadcasts));
    CHECK(after.count("tanbo_bot_decision_seconds_count") == 1);
  }
  SECTION("messages and bytes: each member got a state per move") {
    // Each move: one act in, one state out to each of the three members.
    CHECK(at(after, "tanbo_messages_in_total") - at(started, "tanbo_messages_in_total") ==
          moves + 2);
    // Counted when a write completes, which may trail the client's read by a moment.
    CHECK(at(after, "tanbo_messages_out_total") - at(started, "tanbo_messages_out_total") >=
          3 * moves);
    CHECK(at(after, "tanbo_bytes_out_total") - at(started, "tanbo_bytes_out_total") >
          100.0 * 3 * moves);
  }
  SECTION("the process: memory, CPU, threads") {
    CHECK(at(after, "process_resident_memory_bytes") > 1e6);
    CHECK(at(after, "process_cpu_seconds_total") > 0);
    CHECK(at(after, "process_threads") >= 4);
    CHECK(at(after, "process_open_fds") > 3);
  }
}

TEST_CASE("/metrics: the bot decision histogram counts every choice a CPU seat made",
          "[net][metrics][bots]") {
  CpuServer fx;
  const std::string count = "tanbo_bot_decision_seconds_count";
  const std::string sum = "tanbo_bot_decision_seconds_sum";
  Samples before = scrape(fx.port());

  ProtocolClient human(fx.port());
  human.hello("Ana");
  json first;
  std::string room = create_room(human,
                                 {{"game", "mancala-simple"},
                                  {"players", 2},
                                  {"options", {{"first", 0}}},
                                  {"cpu", {{{"seat", 1}, {"level", "random"}}}}},
                                 &first);
  REQUIRE(first.at("status") == "playing");
  HumanGame g = play_human(human, room, 0, first, 7, 100);
  REQUIRE(g.end.at("status") == "finished");
  REQUIRE(g.cpu_steps > 0);
  Samples after = scrape(fx.port());

  // Each CPU step is one choice; a choice may also be made for a version the room has left.
  CHECK(at(after, count) - at(before, count) >= g.cpu_steps);
  CHECK(at(after, sum) >= at(before, sum));
  CHECK(at(after, R"(tanbo_bot_decision_seconds_bucket{le="+Inf"})") == at(after, count));
}

TEST_CASE("/metrics answers HEAD with headers only and refuses other methods", "[net][metrics]") {
  RoomsServer fx;
  auto head = http_request(fx.port(), "HEAD", "/metrics");
  CHECK(head.status == 200);
  CHECK(head.body.empty());
  CHECK(http_request(fx.port(), "POST", "/metrics").status == 405);
}

TEST_CASE("a room writes one state frame per change, and one more per version 1 being spoken",
          "[server][metrics][versions]") {
  RoomsServer fx;
  const std::string v2 = "tanbo_state_frames_total{protocol=\"2\"}";
  const std::string v1 = "tanbo_state_frames_total{protocol=\"1\"}";
  Table t = Table::seat(fx.port(), "steere-tanbo", 2, 2, {{"first", 0}, {"size", "7x7"}});
  std::uint64_t v = t.state.at("version");
  // Plays the deciding seat's first legal action; what the state frames counters did.
  const auto step = [&] {
    const Samples before = scrape(fx.port());
    v = t.play_first();
    t.catch_up(++v);
    const Samples after = scrape(fx.port());
    return std::pair{at(after, v2) - at(before, v2), at(after, v1) - at(before, v1)};
  };
  // Two players and two spectators, all of version 2: one frame for all four.
  CHECK(step() == std::pair{1.0, 0.0});
  CHECK(step() == std::pair{1.0, 0.0});

  ProtocolClient old(fx.port());
  old.hello("Olga", "", std::nullopt);
  old.send({{"type", "join"}, {"room", t.room}, {"as", "spectator"}});
  old.expect("joined");
  CHECK(old.expect("state").at("version") == v);
  // Now version 1 is spoken there too, whose names for this game differ: one frame more per
  // change, shared by its speakers.
  CHECK(step() == std::pair{1.0, 1.0});
  CHECK(old.expect("state").at("version") == v);
  old.send({{"type", "leave"}, {"id", 1}, {"room", t.room}});
  old.expect("left");
  CHECK(step() == std::pair{1.0, 0.0});
}

TEST_CASE("a member of version 1 costs no frame where the game's names are the same",
          "[server][metrics][versions]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  ProtocolClient old(fx.port());
  old.hello("Olga", "", std::nullopt);
  old.send({{"type", "join"}, {"room", t.room}, {"as", "spectator"}});
  old.expect("joined");
  std::uint64_t v = old.expect("state").at("version");
  const Samples before = scrape(fx.port());
  v = t.play_first();
  t.catch_up(++v);
  json seen = old.expect("state");
  CHECK(seen.at("version") == v);
  CHECK(seen == t.state);
  const Samples after = scrape(fx.port());
  const std::string v2 = "tanbo_state_frames_total{protocol=\"2\"}";
  const std::string v1 = "tanbo_state_frames_total{protocol=\"1\"}";
  CHECK(at(after, v2) - at(before, v2) == 1);
  CHECK(at(after, v1) - at(before, v1) == 0);
}
