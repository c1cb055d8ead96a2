// Group commit (issue 11): the StoreWorker runs every job queued at once in one transaction, and
// an answer that says "committed" is delivered only after that transaction committed.
#include <sqlite3.h>

#include <future>
#include <mutex>
#include <vector>

#include "server/store/worker.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

// Counts a SQLite connection's commits and, when `veto` is set, turns each COMMIT into a rollback.
struct CommitHook {
  std::atomic<int> commits{0};
  std::atomic<bool> veto{false};
  static int on_commit(void* self) {
    auto* h = static_cast<CommitHook*>(self);
    ++h->commits;
    return h->veto ? 1 : 0;
  }
};

// A write's answer as a room would hear it: its code, and whether its group committed.
struct Answer {
  Code code = Code::failed;
  bool answered = false;
  bool committed = false;
  std::int64_t visible = -1;  // actions another connection saw when the answer ran
};

// A worker on `db` holding room "r", whose first job blocks until release(): everything posted
// meanwhile is queued at once, and the group the first job opened takes it whole.
class HeldWorker {
 public:
  HeldWorker(const TestDb& db, CommitHook& hook, Log log = {}) {
    auto store = db.open();
    REQUIRE(store->create_room(sample_room("r")).ok());
    if (db.backend() == Backend::sqlite)
      sqlite3_commit_hook(static_cast<SqliteStore&>(*store).handle(), &CommitHook::on_commit,
                          &hook);
    // No time bound: a slow machine must not split the group this test expects.
    worker_ = std::make_unique<StoreWorker>(std::move(store), std::move(log),
                                            GroupLimits{256, std::chrono::seconds(60)});
    auto gate = gate_.get_future().share();
    REQUIRE(worker_->post([gate](Store&) { gate.wait(); }));
  }
  ~HeldWorker() { release(); }
  StoreWorker* operator->() { return worker_.get(); }
  StoreWorker& operator*() { return *worker_; }
  void release() {
    if (!released_) gate_.set_value();
    released_ = true;
  }

 private:
  std::promise<void> gate_;
  bool released_ = false;
  std::unique_ptr<StoreWorker> worker_;
};

// Posts append_action(version) answering into `a` the way StoreJournal does; with `db`, the
// answer also counts the actions another connection sees at that moment.
void post_append(StoreWorker& worker, Answer& a, std::int64_t version, const TestDb* db = nullptr) {
  REQUIRE(worker.post([&a, version, db](Store& s) {
    WriteResult r = s.append_action("r", 1, version, Seat(version % 2), Json{{"hole", 1}});
    a.code = r.code;
    s.after_commit([&a, db](bool committed) {
      a.answered = true;
      a.committed = committed;
      if (db) a.visible = db->count("SELECT count(*) FROM actions");
    });
  }));
}

// How many transactions wrote the actions: SQLite counts commits; in PostgreSQL a row's xmin is
// its savepoint's subtransaction, which shares the commit time of its transaction (the test
// cluster runs with track_commit_timestamp).
int transactions(const TestDb& db, const CommitHook& hook) {
  if (db.backend() == Backend::sqlite) return hook.commits;
  return int(db.count("SELECT count(DISTINCT pg_xact_commit_timestamp(xmin)) FROM actions"));
}

}  // namespace

TEST_CASE("group commit: writes queued together land in one transaction, answered after it",
          "[store][group-commit]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  CommitHook hook;
  std::vector<Answer> answers(20);
  {
    HeldWorker worker(db, hook);
    for (std::size_t i = 0; i < answers.size(); ++i)
      post_append(*worker, answers[i], std::int64_t(i + 1), &db);
    worker.release();
    worker->stop();
    CHECK(worker->healthy());
  }
  SECTION("one transaction for the whole group") { CHECK(transactions(db, hook) == 1); }
  SECTION("every write answers ok and committed, already visible to another connection") {
    for (const auto& a : answers) {
      CHECK(a.code == Code::ok);
      CHECK(a.committed);
      CHECK(a.visible == std::int64_t(answers.size()));
    }
  }
}

TEST_CASE("group commit: a group is bounded, so a burst takes several commits",
          "[store][group-commit]") {
  TempDir dir;
  std::string error;
  auto store = SqliteStore::open(dir.db(), Durability::normal, error);
  REQUIRE(store);
  REQUIRE(store->create_room(sample_room("r")).ok());
  CommitHook hook;
  sqlite3_commit_hook(store->handle(), &CommitHook::on_commit, &hook);
  const std::size_t n = 40;
  std::vector<Answer> answers(n);
  {
    StoreWorker worker(std::move(store), {}, GroupLimits{16, std::chrono::seconds(60)});
    std::promise<void> gate;
    REQUIRE(worker.post([g = gate.get_future().share()](Store&) { g.wait(); }));
    for (std::size_t i = 0; i < n; ++i) post_append(worker, answers[i], std::int64_t(i + 1));
    gate.set_value();
    worker.stop();
  }
  CHECK(hook.commits == 3);  // the gate's job and 15 writes, 16 writes, 9 writes
  for (const auto& a : answers) CHECK(a.committed);
}

TEST_CASE("group commit: a duplicate inside a group answers duplicate while the others commit",
          "[store][group-commit]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  CommitHook hook;
  std::vector<Answer> answers(4);
  {
    HeldWorker worker(db, hook);
    post_append(*worker, answers[0], 1, &db);
    post_append(*worker, answers[1], 2, &db);
    post_append(*worker, answers[2], 2, &db);  // version 2 again
    post_append(*worker, answers[3], 3, &db);
    worker.release();
    worker->stop();
    CHECK(worker->healthy());  // a refusal is not a failure of the database
  }
  CHECK(transactions(db, hook) == 1);
  CHECK(answers[0].code == Code::ok);
  CHECK(answers[1].code == Code::ok);
  CHECK(answers[2].code == Code::duplicate);
  CHECK(answers[3].code == Code::ok);
  for (const auto& a : answers) CHECK(a.visible == 3);
  SECTION("the others are stored, the first version 2 intact") {
    auto rooms = db.open()->load_unfinished({});
    REQUIRE(rooms.size() == 1);
    REQUIRE(rooms[0].actions.size() == 3);
    CHECK(rooms[0].actions[1].version == 2);
    CHECK(rooms[0].actions[1].seat == 0);
    CHECK(rooms[0].version == 3);
  }
}

TEST_CASE("group commit: reads inside a group see its earlier writes", "[store][group-commit]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  CommitHook hook;
  std::int64_t seen = -1;
  bool written = false, grouped = false, read_committed = false;
  {
    HeldWorker worker(db, hook);
    REQUIRE(worker->post([&](Store& s) {
      written = s.append_action("r", 1, 1, 0, Json{{"hole", 1}}).ok();
    }));
    REQUIRE(worker->post([&](Store& s) {
      grouped = s.in_group();
      auto rooms = s.load_unfinished({});
      seen = rooms.empty() ? -1 : rooms[0].version;
      s.after_commit([&](bool committed) { read_committed = committed; });
    }));
    worker.release();
    worker->stop();
  }
  REQUIRE(written);
  CHECK(grouped);
  CHECK(transactions(db, hook) == 1);
  CHECK(seen == 1);
  CHECK(read_committed);
}

TEST_CASE("group commit: a failed COMMIT answers failed for every member and turns unhealthy",
          "[store][group-commit]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  CommitHook hook;
  // PostgreSQL: a deferred constraint no action can meet fails the COMMIT, never a write.
  if (backend == Backend::postgres) {
    db.open();  // the schema first
    db.exec(
        "ALTER TABLE actions ADD CONSTRAINT veto FOREIGN KEY (action) REFERENCES "
        "identities(id) DEFERRABLE INITIALLY DEFERRED");
  }
  std::vector<Answer> answers(5);
  std::vector<std::string> log;
  std::mutex m;
  {
    HeldWorker worker(db, hook, [&](std::string l) {
      std::lock_guard lock(m);
      log.push_back(std::move(l));
    });
    hook.veto = true;  // SQLite: the commit hook turns the group's COMMIT into a rollback
    for (std::size_t i = 0; i < answers.size(); ++i)
      post_append(*worker, answers[i], std::int64_t(i + 1), &db);
    worker.release();
    worker->stop();
    CHECK_FALSE(worker->healthy());
  }
  SECTION("each write succeeded in its savepoint, and answers not committed") {
    for (const auto& a : answers) {
      CHECK(a.code == Code::ok);
      CHECK(a.answered);
      CHECK_FALSE(a.committed);
      CHECK(a.visible == 0);
    }
  }
  SECTION("nothing of the group is stored") {
    CHECK(db.count("SELECT count(*) FROM actions") == 0);
  }
  SECTION("the failure is logged, and the outage it begins once") {
    REQUIRE(log.size() == 2);
    CHECK_THAT(log[0], Catch::Contains("not committed"));
    CHECK_THAT(log[1], Catch::Contains("the database fails"));
  }
}

TEST_CASE("group commit: outside a group after_commit answers at once", "[store][group-commit]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_room(sample_room("r")).ok());
  bool committed = false;
  store->after_commit([&](bool c) { committed = c; });
  CHECK(committed);
  CHECK_FALSE(store->in_group());
  CHECK(store->take_after_commit().empty());
}
