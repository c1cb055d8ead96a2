// The action log and recovery (issue 8: durable before visible; R2: the record is what is stored).
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include "engine/core/match.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

// Plays `n` actions of a real match from the room's record head, logging each one.
std::vector<LoggedAction> play(Store& store, const RoomRow& row, int n,
                               std::int64_t first_version = 1) {
  LoadedRoom head{row, {}, 0};
  tanbo_server::engine::Problems problems;
  auto match = tanbo_server::engine::Match::start(head.record(), problems);
  REQUIRE(match);
  std::vector<LoggedAction> logged;
  for (int i = 0; i < n && !match->legal_json().empty(); ++i) {
    const Json action = match->legal_json()[std::size_t(i) % match->legal_json().size()];
    const auto seat = match->game().pending().seat;
    REQUIRE_FALSE(match->act(seat, action));
    LoggedAction a{first_version + i, seat, action};
    REQUIRE(store.append_action(row.id, row.game_no, a.version, a.seat, a.action).ok());
    logged.push_back(a);
  }
  return logged;
}

}  // namespace

// Each logged action also keeps its time (schema 3); the expectations name none.
std::vector<LoggedAction> without_times(std::vector<LoggedAction> actions) {
  for (auto& a : actions) {
    CHECK(a.at > 0);
    a.at = 0;
  }
  return actions;
}

TEST_CASE("a room written, closed and reopened loads back identically", "[store][rooms]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  RoomRow row = sample_room("r1");
  std::vector<LoggedAction> logged;
  {
    auto store = db.open();
    REQUIRE(store->create_room(row).ok());
    REQUIRE(store->set_seat("r1", 1, "").ok());
    REQUIRE(store->set_seat("r1", 1, "carol").ok());
    REQUIRE(store->set_timer("r1", Json{{"turn_ms", 15000}, {"left", {1000, 2000}}}).ok());
    logged = play(*store, row, 6);
  }
  row.seats = {"alice", "carol"};
  row.timer = {{"turn_ms", 15000}, {"left", {1000, 2000}}};

  auto store = db.open();
  std::vector<std::string> log;
  auto rooms = store->load_unfinished([&](std::string l) { log.push_back(std::move(l)); });
  CHECK(log.empty());
  REQUIRE(rooms.size() == 1);
  const LoadedRoom& loaded = rooms[0];
  SECTION("the row, its seats and the actions in version order") {
    CHECK(loaded.row == row);
    CHECK(without_times(loaded.actions) == logged);
    CHECK(loaded.version == 6);
  }
  SECTION("R2: its record replays through the engine to the same position") {
    auto replayed = tanbo_server::engine::replay(loaded.record());
    REQUIRE(replayed.match);
    CHECK(replayed.failed_at == std::string::npos);
    CHECK(replayed.match->record().actions.size() == logged.size());
  }
  SECTION("R5: a first seat drawn from the seed stays drawn in the record") {
    CHECK(loaded.record().options["first"] == "random");
  }
}

TEST_CASE("a room row that cannot be read is set aside with a log line and the others load",
          "[store][rooms][recovery]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  {
    auto store = db.open();
    for (auto id : {"good1", "bad", "good2"}) REQUIRE(store->create_room(sample_room(id)).ok());
  }
  std::string broken;
  SECTION("options that are not JSON") {
    db.exec("UPDATE rooms SET options = '{not json' WHERE id = 'bad'");
    broken = "options";
  }
  SECTION("an unknown game") {
    db.exec("UPDATE rooms SET game = 'chess' WHERE id = 'bad'");
    broken = "unknown game";
  }
  SECTION("a ranked flag that is neither 0 nor 1") {
    db.exec(backend == Backend::sqlite ? "UPDATE rooms SET ranked = 'yes' WHERE id = 'bad'"
                                       : "UPDATE rooms SET ranked = 2 WHERE id = 'bad'");
    broken = "ranked";
  }
  SECTION("a seed that no longer matches its commitment") {
    db.exec("UPDATE games SET seed = '" + std::string(64, '0') + "' WHERE room = 'bad'");
    broken = "commit";
  }
  SECTION("an action that is not JSON") {
    db.exec(
        "INSERT INTO actions (room, version, game_no, seat, action) VALUES "
        "('bad', 1, 1, 0, '{\"hole\":')");
    broken = "action";
  }
  auto store = db.open();
  std::vector<std::string> log;
  auto rooms = store->load_unfinished([&](std::string l) { log.push_back(std::move(l)); });
  REQUIRE(rooms.size() == 2);
  CHECK(rooms[0].row.id == "good1");
  CHECK(rooms[1].row.id == "good2");
  REQUIRE(log.size() == 1);
  CHECK_THAT(log[0], Catch::Contains("bad") && Catch::Contains(broken));
}

TEST_CASE("an action version already logged is refused as a duplicate", "[store][rooms]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_room(sample_room("r")).ok());
  REQUIRE(store->append_action("r", 1, 1, 0, Json{{"hole", 1}}).ok());
  auto again = store->append_action("r", 1, 1, 1, Json{{"hole", 4}});
  CHECK(again.code == Code::duplicate);
  SECTION("the first action stays as it was") {
    auto rooms = store->load_unfinished({});
    REQUIRE(rooms.size() == 1);
    REQUIRE(rooms[0].actions.size() == 1);
    CHECK(rooms[0].actions[0].version == 1);
    CHECK(rooms[0].actions[0].seat == 0);
    CHECK(rooms[0].actions[0].action == Json{{"hole", 1}});
    CHECK(rooms[0].actions[0].at > 0);
  }
  SECTION("a refusal is not a database failure, and the next version is accepted") {
    CHECK(store->healthy());
    CHECK(store->append_action("r", 1, 2, 1, Json{{"hole", 4}}).ok());
  }
}

TEST_CASE("writes refuse what does not fit the room", "[store][rooms]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_room(sample_room("r")).ok());
  SECTION("an unknown room") {
    CHECK(store->append_action("x", 1, 1, 0, "resign").code == Code::not_found);
  }
  SECTION("a game other than the current one") {
    CHECK(store->append_action("r", 2, 1, 0, "resign").code == Code::invalid);
  }
  SECTION("a seat the room does not have") {
    CHECK(store->append_action("r", 1, 1, 2, "resign").code == Code::invalid);
    CHECK(store->set_seat("r", 5, "zed").code == Code::not_found);
  }
  SECTION("a room id taken already") {
    CHECK(store->create_room(sample_room("r")).code == Code::duplicate);
  }
  SECTION("R1: a commitment that is not the seed's") {
    RoomRow bad = sample_room("s");
    bad.commit = std::string(64, 'a');
    CHECK(store->create_room(bad).code == Code::invalid);
  }
  SECTION("a rematch before the game is over") {
    auto seed = seed_of("next");
    CHECK(store
              ->start_rematch("r", 2, tanbo_server::engine::seed_hex(seed),
                              tanbo_server::engine::seed_commitment(seed), 0)
              .code == Code::invalid);
  }
  SECTION("a result whose places do not match the players") {
    CHECK(store->finish_game("r", 1, Json{{"places", {1}}, {"reason", "x"}}, 5).code ==
          Code::invalid);
  }
  SECTION("an action after the game ended") {
    REQUIRE(store->finish_game("r", 1, Json{{"places", {1, 2}}, {"reason", "resign"}}, 5).ok());
    CHECK(store->append_action("r", 1, 1, 0, "resign").code == Code::invalid);
    CHECK(store->finish_game("r", 1, Json{{"places", {1, 2}}, {"reason", "resign"}}, 6).code ==
          Code::duplicate);
  }
  CHECK(store->healthy());
}

TEST_CASE("a rematch starts the next game, recovery gives the new game with its own actions",
          "[store][rooms]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  RoomRow row = sample_room("r");
  auto store = db.open();
  REQUIRE(store->create_room(row).ok());
  auto game1 = play(*store, row, 3);
  REQUIRE(store->finish_game("r", 1, Json{{"places", {2, 1}}, {"reason", "resign"}}, 10).ok());
  SECTION("a room whose game is over is not loaded") { CHECK(store->load_unfinished({}).empty()); }
  SECTION("after the rematch") {
    auto seed = seed_of("game 2");
    row.seed = tanbo_server::engine::seed_hex(seed);
    row.commit = tanbo_server::engine::seed_commitment(seed);
    row.first = 0;  // M6: alternate_first moved the first seat on; fixed, not drawn
    row.first_drawn = false;
    row.game_no = 2;
    REQUIRE(store->start_rematch("r", 2, row.seed, row.commit, 0, false, 20).ok());
    auto game2 = play(*store, row, 2, 4);  // versions go on from game 1's
    auto rooms = store->load_unfinished({});
    REQUIRE(rooms.size() == 1);
    CHECK(rooms[0].row == row);
    CHECK(without_times(rooms[0].actions) == game2);
    CHECK(rooms[0].version == 5);
    CHECK(rooms[0].record().options["first"] == 0);
    CHECK(tanbo_server::engine::replay(rooms[0].record()).failed_at == std::string::npos);
  }
}

TEST_CASE("load_room reads one unfinished room as load_unfinished does, and nothing else",
          "[store][rooms][recovery]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  RoomRow playing = sample_room("playing", 1'700'000'000'000);
  REQUIRE(store->create_room(playing).ok());
  play(*store, playing, 4);
  REQUIRE(store->create_room(sample_room("other", 1'700'000'000'001)).ok());
  REQUIRE(store->create_room(sample_room("over")).ok());
  REQUIRE(store->finish_game("over", 1, Json{{"places", {1, 2}}, {"reason", "resign"}}, 5).ok());
  REQUIRE(store->create_room(sample_room("left")).ok());
  REQUIRE(store->abandon_room("left", 6).ok());

  std::vector<std::string> log;
  auto logged = [&](std::string l) { log.push_back(std::move(l)); };
  SECTION("an unfinished room: the same row, actions, version and start as load_unfinished's") {
    auto all = store->load_unfinished({});
    REQUIRE(all.size() == 2);
    REQUIRE(all[0].row.id == "playing");
    auto one = store->load_room("playing", logged);
    REQUIRE(one);
    CHECK(one->row == all[0].row);
    CHECK(one->actions == all[0].actions);
    CHECK(one->version == 4);
    CHECK(one->version == all[0].version);
    CHECK(one->started_at == all[0].started_at);
    CHECK(*one == all[0]);
    CHECK(store->load_room("other", logged)->row.id == "other");
  }
  SECTION("a finished, an abandoned and an unknown room: none") {
    CHECK_FALSE(store->load_room("over", logged));
    CHECK_FALSE(store->load_room("left", logged));
    CHECK_FALSE(store->load_room("ghost", logged));
  }
  SECTION("a room that cannot be read: none, with a log line") {
    db.exec("UPDATE rooms SET options = '{not json' WHERE id = 'other'");
    CHECK_FALSE(store->load_room("other", logged));
    REQUIRE(log.size() == 1);
    CHECK_THAT(log[0], Catch::Contains("other") && Catch::Contains("options"));
    log.clear();
  }
  CHECK(log.empty());
}

TEST_CASE("every action acknowledged before a kill -9 is there after it", "[store][rooms][crash]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  {
    auto store = db.open();
    REQUIRE(store->create_room(sample_room("r")).ok());
  }
  int acks[2];
  REQUIRE(pipe(acks) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child appends as fast as it can and acknowledges each version once it returned ok.
    close(acks[0]);
    std::string error;
    auto store = Store::open_url(db.url(), Durability::normal, error);
    for (std::int64_t v = 1; store; ++v) {
      if (!store->append_action("r", 1, v, int(v % 2), Json{{"hole", v % 6}}).ok()) break;
      if (write(acks[1], &v, sizeof v) != sizeof v) break;
    }
    _exit(1);
  }
  close(acks[1]);
  std::int64_t acked = 0, v = 0;
  while (acked < 200 && read(acks[0], &v, sizeof v) == sizeof v) acked = v;
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  close(acks[0]);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(acked >= 200);

  auto store = db.open();
  auto rooms = store->load_unfinished({});
  REQUIRE(rooms.size() == 1);
  CHECK(rooms[0].version >= acked);
  REQUIRE(rooms[0].actions.size() == std::size_t(rooms[0].version));
  for (std::size_t i = 0; i < rooms[0].actions.size(); ++i) {
    CAPTURE(i);
    CHECK(rooms[0].actions[i].version == std::int64_t(i + 1));
  }
}
