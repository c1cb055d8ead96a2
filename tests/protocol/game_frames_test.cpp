// Every game of the catalogue, played at random to its end with its options varied, against the
// schemas of its state, its actions and its events (protocol/schema/game-<game>.json): each state
// frame as a room writes it (protocol::state_text, with_legal and legal_text over the engine's own
// writers) must satisfy server-state.json, which checks the game's parts through its `game`.
#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "protocol/server.hpp"
#include "support.hpp"

using namespace tanbo_server::protocol;
using Json = tanbo_server::engine::Json;
namespace engine = tanbo_server::engine;

namespace {

constexpr int kGamesPerGame = 100;
const std::string kCommit(64, 'c');

// The schemas, with one more document per part of each game (its state, its action, its event),
// so that a frame the whole schema refuses is told apart by the part that fails.
const SchemaSet& game_schemas() {
  static const SchemaSet set = [] {
    SchemaSet s = test::schemas();
    std::vector<std::string> problems;
    for (const auto* g : engine::all_games())
      for (const char* part : {"state", "action", "event"})
        s.add(g->id + "-" + part,
              Json{{"$ref", "game-" + g->id + ".json#/$defs/" + std::string(part)}}, problems);
    s.check_refs(problems);
    for (const auto& p : problems) UNSCOPED_INFO(p);
    REQUIRE(problems.empty());
    return s;
  }();
  return set;
}

// One value the option allows, drawn at random.
Json any_value(const engine::OptionSpec& o, std::mt19937_64& rng) {
  using Kind = engine::OptionSpec::Kind;
  if (o.kind == Kind::boolean) return rng() % 2 == 0;
  if (!o.allowed.empty()) return o.allowed[rng() % o.allowed.size()];
  return o.min + int(rng() % std::uint64_t(o.max - o.min + 1));
}

// A game of g with every option drawn, and players; drawn again when the draw is refused (an
// option one board size or player count has not).
std::unique_ptr<engine::Match> start(const engine::GameInfo& g, std::mt19937_64& rng) {
  for (;;) {
    engine::Record head;
    head.game = g.id;
    head.players = g.min_players + int(rng() % std::uint64_t(g.max_players - g.min_players + 1));
    for (const auto& o : engine::option_specs(g)) head.options[o.name] = any_value(o, rng);
    for (auto& b : head.seed) b = std::uint8_t(rng());
    engine::Problems problems;
    if (auto m = engine::Match::start(head, problems)) return m;
  }
}

struct Frames {
  std::vector<SeatView> seats;
  std::string seats_text;
  std::string seed_hex;
};

// The frame a room sends to the deciding seat (with `legal`), or to everyone once finished.
std::string frame_of(const engine::Match& m, std::uint64_t version, const Frames& f) {
  const bool over = m.game().status() == engine::Status::finished;
  const engine::Pending pending = over ? engine::Pending{} : m.game().pending();
  const engine::Result result = over ? m.result() : engine::Result{};
  StateView v;
  v.room = "r-frames";
  v.version = version;
  v.game = m.record().game;
  v.status = over ? RoomStatus::finished : RoomStatus::playing;
  v.seats = f.seats;
  v.pending = over ? nullptr : &pending;
  v.result = over ? &result : nullptr;
  v.commit = kCommit;
  if (over) v.seed = f.seed_hex;
  const std::string text =
      state_text(v, {f.seats_text, engine::state_text(m.game()), m.events().text()});
  return over ? text : with_legal(text, legal_text(m));
}

// Empty when the frame passes; else the violations, and the first part of it that fails (its
// state, an action of its legal list or an event) with that part's violations.
std::vector<std::string> problems_of(const std::string& game, const Json& frame) {
  const SchemaSet& s = game_schemas();
  auto whole = s.validate("server-state.json", frame);
  if (whole.empty()) return whole;
  const auto check = [&](const char* part, const Json& value) {
    auto v = s.validate(game + "-" + part, value);
    if (v.empty()) return false;
    whole.push_back(std::string("the ") + part + " " + value.dump() + ":");
    whole.insert(whole.end(), v.begin(), v.end());
    return true;
  };
  if (check("state", frame["state"])) return whole;
  for (const auto& a : frame.value("legal", Json::array()))
    if (check("action", a)) return whole;
  for (const auto& e : frame["events"])
    if (check("event", e)) return whole;
  return whole;
}

// The next step: mostly a legal action drawn at random (now and then by the server's computer),
// rarely a resignation or a time-out of the deciding seat.
void step(engine::Match& m, std::mt19937_64& rng) {
  const engine::Seat seat = m.game().pending().seat;
  const auto roll = rng() % 1000;
  if (roll == 0) {
    REQUIRE_FALSE(m.resign(seat));
  } else if (roll == 1) {
    REQUIRE_FALSE(m.time_out(seat));
  } else {
    const Json action = m.legal_action(std::size_t(rng() % m.legal_count()));
    static constexpr std::string_view kBy[] = {"", "", "", "cpu", "takeover", "timer"};
    REQUIRE_FALSE(m.act(seat, action, kBy[rng() % std::size(kBy)]));
  }
}

// Plays one game to its end; the number of frames checked.
std::size_t play(const engine::GameInfo& g, std::mt19937_64& rng) {
  auto m = start(g, rng);
  Frames f;
  for (engine::Seat s = 0; s < m->game().players(); ++s)
    f.seats.push_back(SeatView{s, Player{"p" + std::to_string(s), "Player"}, true, false, {}});
  f.seats_text = seats_text(f.seats);
  f.seed_hex = engine::seed_hex(m->record().seed);
  std::size_t frames = 0;
  for (std::uint64_t version = 1;; ++version) {
    const Json frame = Json::parse(frame_of(*m, version, f));
    auto problems = problems_of(g.id, frame);
    if (!problems.empty()) {
      INFO("record: " << m->record().to_json().dump());
      INFO("frame: " << frame.dump());
      for (const auto& p : problems) UNSCOPED_INFO(p);
      FAIL(g.id << ": a frame its schema refuses");
    }
    ++frames;
    if (m->game().status() == engine::Status::finished) return frames;
    step(*m, rng);
  }
}

// The games of one game, with the figures of the run (in the log of a passing run too).
void play_many(std::string_view id) {
  const engine::GameInfo* g = engine::find_game(id);
  REQUIRE(g);
  const auto master = std::random_device{}();
  const char* given = std::getenv("TANBO_GAME_FRAMES_SEED");
  const auto seed = given ? std::strtoull(given, nullptr, 10) : master;
  INFO("seed of the draws: " << seed << " (TANBO_GAME_FRAMES_SEED replays them)");
  std::mt19937_64 rng(seed);
  // The first state frame of a room: waiting, no game yet.
  StateView w;
  w.room = "r-frames";
  w.game = g->id;
  w.commit = kCommit;
  REQUIRE(problems_of(g->id, Json::parse(state_text(w, {"[]", "", ""}))).empty());
  const auto begun = std::chrono::steady_clock::now();
  std::size_t frames = 0;
  for (int i = 0; i < kGamesPerGame; ++i) frames += play(*g, rng);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - begun)
                      .count();
  WARN(g->id << ": " << kGamesPerGame << " games, " << frames << " frames, " << ms << " ms");
}

}  // namespace

// One case per game, each a test of its own for ctest.
TEST_CASE("random tanbo games: every frame satisfies the game's schemas",
          "[protocol][schema][games]") {
  play_many("tanbo");
}

TEST_CASE("random steere-tanbo games: every frame satisfies the game's schemas",
          "[protocol][schema][games]") {
  play_many("steere-tanbo");
}

TEST_CASE("random mancala-simple games: every frame satisfies the game's schemas",
          "[protocol][schema][games]") {
  play_many("mancala-simple");
}

TEST_CASE("random tsoro games: every frame satisfies the game's schemas",
          "[protocol][schema][games]") {
  play_many("tsoro");
}

TEST_CASE("the catalogue's games are the four above", "[protocol][schema][games]") {
  std::vector<std::string> ids;
  for (const auto* g : engine::all_games()) ids.push_back(g->id);
  CHECK(ids == std::vector<std::string>{"tanbo", "steere-tanbo", "mancala-simple", "tsoro"});
}

TEST_CASE("the state frame's schema is keyed by its game", "[protocol][schema][games]") {
  const SchemaSet& s = game_schemas();
  Json frame = Json::parse(
      R"({"type":"state","room":"r","version":1,"game":"tanbo","status":"playing","seats":[],)"
      R"("spectators":0,"state":{"made":"up"},"pending":null,"events":[{"type":"drew"}],)"
      R"("commit":")" +
      kCommit + R"("})");
  SECTION("a game with a schema: its state and events are checked") {
    CHECK_FALSE(s.validate("server-state.json", frame).empty());
    frame["state"] = nullptr;
    CHECK_FALSE(s.validate("server-state.json", frame).empty());
    frame["events"] = Json::array();
    CHECK(s.validate("server-state.json", frame).empty());
  }
  SECTION("a game without one (a server may register more): any state and events") {
    frame["game"] = "nim";
    CHECK(s.validate("server-state.json", frame).empty());
  }
}

// protocol/schema/lenient/ (generated): what a client validates the server's messages with, so
// that members a server adds within a protocol version pass; the repository's schemas refuse them.
TEST_CASE("the lenient schemas take members the strict ones refuse", "[protocol][schema][games]") {
  SchemaSet lenient;
  std::vector<std::string> problems;
  REQUIRE(lenient.load_dir(std::string(TANBO_PROTOCOL_SCHEMA_DIR) + "/lenient", problems));
  for (const auto& name : test::schemas().names())
    if (name.rfind("client-", 0) != 0) CHECK(lenient.has(name));
  std::mt19937_64 rng(7);
  auto m = start(*engine::find_game("tsoro"), rng);
  Frames f;
  f.seats = {SeatView{0, std::nullopt, false, true, {}},
             SeatView{1, std::nullopt, false, true, {}}};
  f.seats_text = seats_text(f.seats);
  Json frame = Json::parse(frame_of(*m, 1, f));
  REQUIRE(test::schemas().validate("server-state.json", frame).empty());
  REQUIRE(lenient.validate("server-state.json", frame).empty());
  const auto only_lenient = [&](const Json& changed) {
    CHECK_FALSE(test::schemas().validate("server-state.json", changed).empty());
    CHECK(lenient.validate("server-state.json", changed).empty());
  };
  Json changed = frame;
  SECTION("in the frame") {
    changed["later"] = 1;
    only_lenient(changed);
  }
  SECTION("in the game's state") {
    changed["state"]["later"] = true;
    only_lenient(changed);
  }
  SECTION("in an event") {
    changed["events"][0]["later"] = "x";
    only_lenient(changed);
  }
  SECTION("in an action") {
    changed["legal"][0]["later"] = Json::array();
    only_lenient(changed);
  }
  SECTION("but not a wrong value") {
    changed["state"]["turn"] = "one";
    CHECK_FALSE(lenient.validate("server-state.json", changed).empty());
  }
}
