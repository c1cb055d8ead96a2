// The store journal: each room entry becomes its store write, answered only once committed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <future>
#include <random>

#include "engine/core/match.hpp"
#include "server/rooms/store_journal.hpp"
#include "server/store/worker.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using engine::Json;

namespace {

struct Fixture {
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("tanbo-journal-" + std::to_string(std::random_device{}()));
  std::shared_ptr<store::StoreWorker> worker;
  StoreJournal journal{nullptr};

  Fixture() : worker(open()), journal(worker) {}
  ~Fixture() {
    worker->stop();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  std::shared_ptr<store::StoreWorker> open() {
    std::string error;
    auto s = store::Store::open(dir / "tanbo.db", store::Durability::normal, error);
    if (!s) throw std::runtime_error(error);
    return std::make_shared<store::StoreWorker>(std::move(s));
  }
  bool append(JournalEntry e) {
    std::promise<bool> p;
    auto f = p.get_future();
    journal.append(std::move(e), [&p](Appended a) { p.set_value(a == Appended::stored); });
    return f.get();
  }
  template <class F>
  auto read(F f) {
    std::promise<decltype(f(std::declval<store::Store&>()))> p;
    auto fut = p.get_future();
    worker->post([&](store::Store& s) { p.set_value(f(s)); });
    return fut.get();
  }
};

engine::Record head(const std::string& seed_text, Json options = {{"first", "random"}}) {
  engine::Record r;
  r.game = "mancala-simple";
  r.options = std::move(options);
  r.players = 2;
  r.seed = engine::seed_from_text(seed_text);
  return r;
}

}  // namespace

TEST_CASE("the store journal writes each room entry, in order, and answers after the commit",
          "[persist][journal]") {
  Fixture f;
  auto h = head("journal");
  Json created{
      {"head", h.to_json()}, {"owner", "p1"}, {"ranked", false}, {"timer", {{"seconds", 30}}}};
  REQUIRE(f.append({JournalEntry::Kind::created, "r1", 0, engine::kNoSeat, created}));
  REQUIRE(f.append({JournalEntry::Kind::seat, "r1", 0, 0, {{"player", "cpu:greedy"}}}));
  REQUIRE(f.append({JournalEntry::Kind::seat, "r1", 1, 1, {{"player", "cpu:random"}}}));

  engine::Problems problems;
  auto match = engine::Match::start(h, problems);
  REQUIRE(match);
  const auto seat = match->game().pending().seat;
  const Json action = match->legal_json().at(0);
  REQUIRE(f.append({JournalEntry::Kind::action, "r1", 2, seat, action}));

  auto rooms = f.read([](store::Store& s) { return s.load_unfinished({}); });
  REQUIRE(rooms.size() == 1);
  const auto& r = rooms[0];
  SECTION("created: the row, its seed and commitment (R1), the first seat the seed draws (R5)") {
    CHECK(r.row.game == "mancala-simple");
    CHECK(r.row.seed == engine::seed_hex(h.seed));
    CHECK(r.row.commit == engine::seed_commitment(h.seed));
    CHECK(r.row.first == match->first());
    CHECK(r.row.first_drawn);
    CHECK(r.row.timer == Json{{"seconds", 30}});
  }
  SECTION("seat: the computer seats are identities like any other") {
    CHECK(r.row.seats == std::vector<std::string>{"cpu:greedy", "cpu:random"});
    auto rec = f.read([](store::Store& s) { return s.game_record("r1-1"); });
    REQUIRE(rec);
    CHECK((*rec)["players_info"][0]["name"] == "CPU (greedy)");
  }
  SECTION("action: logged with its version and time") {
    REQUIRE(r.actions.size() == 1);
    CHECK(r.actions[0].version == 2);
    CHECK(r.actions[0].action == action);
    CHECK(r.actions[0].at > 0);
  }
  SECTION("timer: the settings replaced verbatim") {
    REQUIRE(f.append({JournalEntry::Kind::timer, "r1", 2, engine::kNoSeat, {{"seconds", 10}}}));
    auto again = f.read([](store::Store& s) { return s.load_unfinished({}); });
    CHECK(again.at(0).row.timer == Json{{"seconds", 10}});
  }
  SECTION("abandoned: the room is no longer loaded") {
    REQUIRE(f.append({JournalEntry::Kind::abandoned, "r1", 2, engine::kNoSeat, nullptr}));
    CHECK(f.read([](store::Store& s) { return s.load_unfinished({}); }).empty());
  }
  SECTION("finished, then a rematch journaled as game 2") {
    JournalEntry fin{JournalEntry::Kind::finished,
                     "r1",
                     2,
                     engine::kNoSeat,
                     {{"places", {1, 2}}, {"reason", "resign"}}};
    REQUIRE(f.append(fin));
    auto next = head("journal 2", {{"first", 1}});
    JournalEntry re{
        JournalEntry::Kind::rematch, "r1", 3, engine::kNoSeat, {{"head", next.to_json()}}};
    re.game = 2;
    REQUIRE(f.append(re));
    auto rooms2 = f.read([](store::Store& s) { return s.load_unfinished({}); });
    REQUIRE(rooms2.size() == 1);
    CHECK(rooms2[0].row.game_no == 2);
    CHECK(rooms2[0].row.first == 1);
    CHECK_FALSE(rooms2[0].row.first_drawn);
    CHECK(f.worker->healthy());
  }
  SECTION("a write the store refuses answers false and turns the store unhealthy") {
    CHECK_FALSE(f.append({JournalEntry::Kind::action, "r1", 2, seat, action}));  // duplicate
    f.read([](store::Store&) { return 0; });  // the refusal is reported right after its answer
    CHECK_FALSE(f.worker->healthy());
  }
  SECTION("after the worker stopped, nothing is durable: false") {
    f.worker->stop();
    CHECK_FALSE(f.append({JournalEntry::Kind::seat, "r1", 0, 0, nullptr}));
  }
}
