#include <catch2/catch.hpp>
#include <string>

#include "engine/core/registry.hpp"
#include "protocol/limits.hpp"
#include "protocol/server.hpp"
#include "same_json.hpp"
#include "support.hpp"

using namespace tanbo_server::protocol;
using tanbo_server::protocol::test::schemas;
using Json = tanbo_server::engine::Json;
namespace engine = tanbo_server::engine;

namespace {

// The message must satisfy the schema of its type, checked on its serialized text as sent.
void require_valid(const Json& message) {
  REQUIRE(message.contains("type"));
  std::string file = "server-" + message["type"].get<std::string>() + ".json";
  Json sent = Json::parse(serialize(message));
  auto problems = schemas().validate(file, sent);
  CAPTURE(file, sent.dump());
  for (const auto& p : problems) UNSCOPED_INFO(p);
  CHECK(problems.empty());
}

const std::string kHex(64, 'a');

std::vector<SeatView> two_seats() {
  return {SeatView{0, Player{"p1", "Ana"}, true, false, std::nullopt},
          SeatView{1, std::nullopt, false, true, CpuLevel::mcts}};
}

// A game being played in `room`, seat 1 to sow; the view points at what it is given. The game
// has no schema of its own (protocol/schema/game-*.json), so that the state and events the tests
// make up are any game's.
StateView playing(std::string_view room, std::uint64_t version, const std::vector<SeatView>& seats,
                  const engine::Pending& pending) {
  StateView v;  // assigned field by field: designated initializers warn on the rest
  v.room = room;
  v.version = version;
  v.game = "board-game";
  v.status = RoomStatus::playing;
  v.seats = seats;
  v.spectators = 2;
  v.pending = &pending;
  v.commit = kHex;
  return v;
}

// The frame a room sends for v, with the game's state and the step's events (null: none yet).
std::string text_of(const StateView& v, const Json* game_state = nullptr,
                    const Json* events = nullptr) {
  const std::string seats = seats_text(v.seats);
  const std::string game = game_state ? serialize(*game_state) : "";
  const std::string step = events ? serialize(*events) : "";
  return state_text(v, {seats, game, step});
}

Json sent(const StateView& v, const Json* game_state = nullptr, const Json* events = nullptr) {
  return Json::parse(text_of(v, game_state, events));
}

// The `state` message built as a tree, member by member, apart from the writer the room uses:
// the frame must be this tree's text byte for byte.
Json player_tree(const Player& p) {
  Json j = {{"id", p.id}, {"name", p.name}};
  if (p.account) j["account"] = true;
  if (is_default_guest_name(p.id, p.name)) j["default_name"] = true;
  return j;
}

Json state_tree(const StateView& v, const Json* game_state, const Json* events) {
  Json seats = Json::array();
  for (const auto& s : v.seats) {
    Json seat = {{"seat", s.seat},
                 {"player", s.player ? player_tree(*s.player) : Json(nullptr)},
                 {"connected", s.connected},
                 {"cpu", s.cpu}};
    if (s.level) seat["level"] = to_string(*s.level);
    seats.push_back(seat);
  }
  Json j = {{"type", "state"},
            {"room", v.room},
            {"version", v.version},
            {"game", v.game},
            {"status", to_string(v.status)},
            {"seats", seats},
            {"spectators", v.spectators},
            {"state", game_state ? *game_state : Json(nullptr)},
            {"pending", nullptr},
            {"events", events ? *events : Json::array()},
            {"commit", v.commit}};
  if (v.pending && v.pending->seat != engine::kNoSeat)
    j["pending"] = {{"seat", v.pending->seat}, {"decision", v.pending->decision}};
  if (v.result) {
    j["result"] = {{"places", v.result->places}, {"reason", v.result->reason}};
    if (v.ratings && v.ratings->is_array()) j["result"]["ratings"] = *v.ratings;
    if (!v.takeover.empty())
      j["result"]["takeover"] = Json(std::vector<Seat>(v.takeover.begin(), v.takeover.end()));
  }
  if (!v.seed.empty()) j["seed"] = v.seed;
  if (!v.rematch.empty())
    j["rematch"] = Json(std::vector<Seat>(v.rematch.begin(), v.rematch.end()));
  if (const Clock* c = v.clock) {
    Json clock = {{"control", to_string(c->control)},
                  {"seat", c->seat == engine::kNoSeat ? Json(nullptr) : Json(c->seat)},
                  {"at", c->at_ms}};
    if (c->seat != engine::kNoSeat) clock["deadline"] = c->deadline_ms, clock["left"] = c->left_ms;
    if (c->control == TimeControl::Kind::clock) {
      clock["remaining"] = Json::array();
      for (auto ms : c->remaining) clock["remaining"].push_back(ms);
      clock["increment"] = c->increment_ms;
    }
    j["clock"] = std::move(clock);
  }
  return j;
}

// The `ok` message built as a tree, apart from its writer.
Json ok_tree(const Id& re, std::string_view room, std::optional<std::uint64_t> version) {
  Json j = {{"type", "ok"}, {"re", id_json(re)}};
  if (!room.empty()) j["room"] = room;
  if (version) j["version"] = *version;
  return j;
}

RoomSummary summary() {
  return {"r1", "tanbo", Json{{"first", "random"}},    RoomStatus::playing, two_seats(),
          3,    true,    TimeControl::per_decision(30)};
}

engine::GameInfo sample_game() {
  engine::GameInfo g;
  g.id = "sample";
  g.name = "Sample";
  g.summary = "a game for tests";
  g.min_players = 2, g.max_players = 4, g.default_players = 2;
  g.options = {{"stall_rounds", engine::OptionSpec::Kind::integer, 60, {}, 10, 500, "rounds"},
               {"size", engine::OptionSpec::Kind::integer, 11, {7, 11, 15}, 0, 0, "board"},
               {"start", engine::OptionSpec::Kind::choice, "dense", {"dense", "classic"}, 0, 0, ""},
               {"cascade", engine::OptionSpec::Kind::boolean, true, {}, 0, 0, "T5"}};
  return g;
}

}  // namespace

TEST_CASE("every server message builder gives what its schema allows", "[protocol][server]") {
  const Id none, num = std::int64_t(7), str = std::string("q");
  SECTION("welcome") {
    auto w = welcome(num, Player{"u1", "Guest 1"}, "t0k3n", "tanbo-server 0.1.0");
    require_valid(w);
    CHECK(w["protocol"] == kProtocolVersion);
    CHECK(w["re"] == 7);
  }
  SECTION("games: a sample entry and the whole registry") {
    engine::GameInfo g = sample_game();
    const engine::GameInfo* list[] = {&g};
    require_valid(games(str, list));
    require_valid(games(none, engine::all_games()));
    CHECK(games(none, engine::all_games())["games"].size() == engine::all_games().size());
  }
  SECTION("rooms and lobby") {
    RoomSummary rs[] = {summary(),
                        {"r2", "tsoro", Json::object(), RoomStatus::waiting, {}, 0, false, {}}};
    Json entries = Json::array();
    for (const auto& r : rs) entries.push_back(room_json(r));
    require_valid(rooms(none, entries));
    require_valid(rooms(num, Json::array()));
    std::string gone[] = {"r9"};
    require_valid(lobby(entries, gone));
    require_valid(lobby(Json::array(), {}));
  }
  SECTION("created, joined, left, pong, ok") {
    require_valid(created(num, "r1", 0));
    require_valid(joined(str, "r1", Role::player, 1));
    auto spec = joined(none, "r1", Role::spectator, std::nullopt);
    require_valid(spec);
    CHECK(spec["seat"].is_null());
    require_valid(left(num, "r1"));
    require_valid(pong(str));
    require_valid(pong(none));
    require_valid(ok(num, "r1", 7));
    require_valid(ok(str));
    CHECK(ok(num, "r1", 7) == Json{{"type", "ok"}, {"re", 7}, {"room", "r1"}, {"version", 7}});
  }
  SECTION("every reply names its request, null when it had no id; pushes have no re") {
    CHECK(pong(none).at("re").is_null());
    CHECK(joined(none, "r1", Role::spectator, std::nullopt).at("re").is_null());
    CHECK(error(ErrorCode::bad_json, "x").at("re").is_null());
    CHECK(pong(str).at("re") == id_json(str));
    CHECK_FALSE(lobby(Json::array(), {}).contains("re"));
  }
  SECTION("resumed") {
    Step steps[] = {{4, Json::array({{{"type", "sow"}, {"pit", 2}}})}, {5, Json::array()}};
    require_valid(resumed(num, "r1", 5, steps));
    require_valid(resumed(none, "r1", 5, {}));
    auto gap = resumed(num, "r1", 90, {}, true);
    require_valid(gap);
    CHECK(gap["gap"] == true);
    CHECK(resumed(num, "r1", 5, steps)["gap"] == false);
  }
  SECTION("error, with and without problems, for every code") {
    for (const auto& info : kErrors)
      require_valid(error(info.code, std::string(info.meaning), num));
    Error e{ErrorCode::bad_option, "2 options refused", str, {{"size", "not 12"}, {"first", "x"}}};
    auto j = error(e);
    require_valid(j);
    CHECK(j["problems"].size() == 2);
    CHECK(j["code"] == "bad_option");
  }
}

TEST_CASE("state messages carry the room, and legal only for the deciding seat",
          "[protocol][server]") {
  auto seats = two_seats();
  Json game_state = {{"board", {1, 2, 3}}};
  Json events = Json::array({{{"type", "drew"}, {"colour", "red"}}});
  engine::Pending pending{1, "sow"};
  StateView v = playing("r1", 12, seats, pending);
  const auto state = [&](const StateView& view) { return sent(view, &game_state, &events); };

  SECTION("a playing state validates and names the pending decision") {
    Json j = state(v);
    require_valid(j);
    CHECK(j["pending"] == Json{{"seat", 1}, {"decision", "sow"}});
    CHECK_FALSE(j.contains("legal"));
    CHECK_FALSE(j.contains("seed"));
    CHECK_FALSE(j.contains("result"));
  }
  SECTION("a waiting room has no game state, no pending seat and no events") {
    StateView w;
    w.room = "r1";
    w.game = "tanbo";
    w.seats = seats;
    w.commit = kHex;
    Json j = sent(w);
    require_valid(j);
    CHECK(j["state"].is_null());
    CHECK(j["pending"].is_null());
    CHECK(j["events"] == Json::array());
  }
  SECTION("a finished state reveals the seed and the result") {
    engine::Result result{{2, 1}, "25_points"};
    StateView f = v;
    f.status = RoomStatus::finished;
    f.pending = nullptr;
    f.result = &result;
    f.seed = kHex;
    Json j = state(f);
    require_valid(j);
    CHECK(j["seed"] == kHex);
    CHECK(j["result"] == Json{{"places", {2, 1}}, {"reason", "25_points"}});
  }
  SECTION("a timed room shows its clock") {
    Clock c;
    c.seat = 1;
    c.at_ms = 1699999970500;
    c.deadline_ms = 1700000000000;
    c.left_ms = 29500;
    v.clock = &c;
    Json j = state(v);
    require_valid(j);
    CHECK(j["clock"] == Json{{"control", "per_decision"},
                             {"seat", 1},
                             {"at", 1699999970500},
                             {"deadline", 1700000000000},
                             {"left", 29500}});
  }
  SECTION("a game clock shows every seat's time and the increment; once over, no seat runs") {
    const std::vector<std::int64_t> remaining = {61000, 179500};
    Clock c;
    c.control = TimeControl::Kind::clock;
    c.seat = 1;
    c.at_ms = 1700000000000;
    c.deadline_ms = 1700000179500;
    c.left_ms = 179500;
    c.remaining = remaining;
    c.increment_ms = 2000;
    v.clock = &c;
    Json j = state(v);
    require_valid(j);
    CHECK(j["clock"]["remaining"] == Json{61000, 179500});
    CHECK(j["clock"]["increment"] == 2000);
    c.seat = engine::kNoSeat;
    j = state(v);
    require_valid(j);
    CHECK(j["clock"]["seat"].is_null());
    CHECK_FALSE(j["clock"].contains("deadline"));
  }
  SECTION("with_legal adds the list to the shared text without re-serializing it") {
    Frame shared = std::make_shared<const std::string>(text_of(v, &game_state, &events));
    Json legal = Json::array({{{"pit", 0}}, {{"pit", 3}}});
    std::string mine = with_legal(*shared, serialize(legal));
    Json j = Json::parse(mine);
    require_valid(j);
    CHECK(j["legal"] == legal);
    j.erase("legal");
    CHECK(j == Json::parse(*shared));
  }
  SECTION("a legal list that is empty breaks the schema (a deciding seat always has one)") {
    Json j = Json::parse(with_legal(text_of(v, &game_state, &events), "[]"));
    CHECK_FALSE(schemas().validate("server-state.json", j).empty());
  }
}

TEST_CASE("serialize never throws on text that is not UTF-8", "[protocol][server]") {
  Json bad = welcome({}, Player{"u", "A\xff"}, "t", "s");
  std::string text;
  REQUIRE_NOTHROW(text = serialize(bad));
  CHECK_THAT(text, Catch::Contains("\xEF\xBF\xBD"));  // U+FFFD
}

// state_text() is what rooms send; the tree built apart the reference it must equal byte for
// byte, every member in key order with nlohmann's escapes.
TEST_CASE("state_text writes exactly the text of the state's tree", "[protocol][server]") {
  Json game_state = {{"board", {1, 2, 3}}, {"name", "a\nb"}};
  Json events = Json::array({{{"type", "drew"}, {"colour", "red"}}});
  const auto same = [&](const StateView& v, bool started) {
    const Json* g = started ? &game_state : nullptr;
    const Json* e = started ? &events : nullptr;
    const std::string text = text_of(v, g, e);
    CAPTURE(text);
    CHECK(text == serialize(state_tree(v, g, e)));
    CHECK(serialize(Json::parse(text)) == text);
  };
  std::vector<SeatView> seats = two_seats();
  seats[0].player->name = "Zoë \"the\" \\ quick\t\x01 one";  // escapes and UTF-8
  seats[1].cpu = true;
  seats[1].level = CpuLevel::mcts;
  engine::Pending pending{1, "sow"};
  engine::Result result{{2, 1}, "25_points"};
  const std::vector<Seat> rematch = {0, 1}, takeover = {1};
  const Json ratings =
      Json::array({{{"before", 1500}, {"after", 1512}}, {{"before", 1490}, {"after", 1478}}});
  const std::vector<std::int64_t> remaining = {61000, 179500};
  StateView v = playing("r-1", 18446744073709551615ull, seats, pending);
  same(v, true);

  StateView waiting;  // no game yet: null state, no pending seat, no events
  waiting.room = "r-2";
  waiting.game = "tsoro";
  waiting.seats = seats;
  waiting.commit = kHex;
  same(waiting, false);

  StateView finished = v;
  finished.status = RoomStatus::finished;
  finished.pending = nullptr;
  finished.result = &result;
  finished.seed = kHex;
  finished.rematch = rematch;
  same(finished, true);
  finished.takeover = takeover;
  finished.ratings = &ratings;
  same(finished, true);

  for (auto control : {TimeControl::Kind::per_decision, TimeControl::Kind::clock,
                       TimeControl::Kind::correspondence}) {
    for (Seat running : {engine::kNoSeat, Seat(1)}) {
      Clock c;
      c.control = control;
      c.seat = running;
      c.at_ms = 1700000000000;
      c.deadline_ms = 1700000179500;
      c.left_ms = 179500;
      if (control == TimeControl::Kind::clock) c.remaining = remaining, c.increment_ms = 2000;
      v.clock = &c;
      CAPTURE(to_string(control), running);
      same(v, true);
    }
  }
  // A name that is not UTF-8 (never let in) still becomes what serialize makes of it.
  seats[0].player->name = "A\xff";
  v.clock = nullptr;
  same(v, true);
}

TEST_CASE("a waiting room's state frame, as it goes out", "[protocol][server]") {
  const std::vector<SeatView> seats = {SeatView{0, Player{"p1", "Ana", true}, true, false, {}},
                                       SeatView{1, std::nullopt, false, true, CpuLevel::mcts}};
  StateView w;
  w.room = "r1";
  w.game = "tanbo";
  w.seats = seats;
  w.commit = "c0";
  CHECK(text_of(w) ==
        R"({"commit":"c0","events":[],"game":"tanbo","pending":null,"room":"r1","seats":[)"
        R"({"connected":true,"cpu":false,"player":{"account":true,"id":"p1","name":"Ana"},)"
        R"("seat":0},{"connected":false,"cpu":true,"level":"mcts","player":null,"seat":1}],)"
        R"("spectators":0,"state":null,"status":"waiting","type":"state","version":0})");
}

// ok_text() answers moves, and ok() is its text parsed; the tree built apart the reference they
// must equal, byte for byte.
TEST_CASE("ok_text writes exactly the text of the ok's tree", "[protocol][server]") {
  const Id ids[] = {Id{std::int64_t(0)}, Id{std::int64_t(-9007199254740991)},
                    Id{std::string("a-1")}, Id{std::string("q\"\\\n\xC3\xA9")}, Id{}};
  for (const Id& re : ids)
    for (std::string_view room : {"", "r1", "room \"x\""})
      for (std::optional<std::uint64_t> version :
           {std::optional<std::uint64_t>{}, std::optional<std::uint64_t>{0},
            std::optional<std::uint64_t>{18446744073709551615ull}}) {
        const std::string text = ok_text(re, room, version);
        CAPTURE(text);
        CHECK(text == serialize(ok_tree(re, room, version)));
        CHECK(test::same_json(ok(re, room, version), Json::parse(text)));
      }
  CHECK(ok_text(Id{std::int64_t(7)}, "r1", 7) == R"({"re":7,"room":"r1","type":"ok","version":7})");
  CHECK(ok_text(Id{}) == R"({"re":null,"type":"ok"})");
}
