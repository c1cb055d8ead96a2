// A COMMIT whose answer is lost (the database crashed, or the connection broke, with the COMMIT
// sent): the group is in doubt until the database can say whether it was written, and what it
// says must be the truth either way, or a room writes its change twice or never.
#include <dirent.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/store/worker.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;

namespace {

// The process's open sockets, by descriptor.
std::set<int> sockets() {
  std::set<int> found;
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) return found;
  while (const dirent* e = ::readdir(dir)) {
    if (e->d_name[0] == '.') continue;
    const std::string link = "/proc/self/fd/" + std::string(e->d_name);
    char target[64] = {};
    if (::readlink(link.c_str(), target, sizeof target - 1) > 0 &&
        std::string(target).starts_with("socket:"))
      found.insert(std::stoi(e->d_name));
  }
  ::closedir(dir);
  return found;
}

// Asks until the database can say (it may still be starting, or the old transaction running).
std::optional<bool> settle(Store& store) {
  std::optional<bool> written;
  for (int i = 0; i < 100 && !written; ++i) {
    written = store.resolve_doubt();
    if (!written) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return written;
}

}  // namespace

TEST_CASE("a COMMIT lost in a crash reads as not written, though its transaction id comes again",
          "[store][doubt]") {
  if (unavailable(Backend::postgres)) return;
  TestDb db(Backend::postgres);
  auto store = db.open();
  REQUIRE(store->begin_group());
  REQUIRE(store->create_room(sample_room("r")).ok());
  // The database stops at once and starts again: the group's transaction never reached its log,
  // so the restarted database gives its id to the next transactions.
  REQUIRE(PgCluster::get().stop());
  REQUIRE(PgCluster::get().start());
  std::string error;
  CHECK_FALSE(store->end_group(error));
  INFO(error);
  REQUIRE(store->in_doubt());
  for (int i = 0; i < 50; ++i) db.exec("SELECT txid_current()");  // each its own, committed

  const auto written = settle(*store);
  REQUIRE(written);
  CHECK_FALSE(*written);
  CHECK_FALSE(store->in_doubt());
  CHECK(db.count("SELECT count(*) FROM rooms") == 0);
  SECTION("and the store writes again, the room told to write it again finds no copy of it") {
    REQUIRE(store->begin_group());
    REQUIRE(store->create_room(sample_room("r")).ok());
    CHECK(store->end_group(error));
    CHECK(db.count("SELECT count(*) FROM rooms") == 1);
  }
}

TEST_CASE("a COMMIT the database made, whose answer was lost, reads as written", "[store][doubt]") {
  if (unavailable(Backend::postgres)) return;
  TestDb db(Backend::postgres);
  const auto before = sockets();
  auto store = db.open();
  std::set<int> own;
  for (int fd : sockets())
    if (!before.contains(fd)) own.insert(fd);
  REQUIRE(own.size() == 1);  // the store's one connection
  // The COMMIT takes a second (a deferred trigger), during which the connection is cut on this
  // side: the database goes on and commits, and the answer never comes.
  db.exec(
      "CREATE FUNCTION slow_commit() RETURNS trigger AS $$ BEGIN PERFORM pg_sleep(1); RETURN "
      "NULL; END $$ LANGUAGE plpgsql; "
      "CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON rooms DEFERRABLE INITIALLY DEFERRED "
      "FOR EACH ROW EXECUTE FUNCTION slow_commit()");
  REQUIRE(store->begin_group());
  REQUIRE(store->create_room(sample_room("r")).ok());
  std::thread cut([fd = *own.begin()] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::shutdown(fd, SHUT_RDWR);
  });
  std::string error;
  const bool committed = store->end_group(error);
  cut.join();
  CHECK_FALSE(committed);
  REQUIRE(store->in_doubt());

  const auto written = settle(*store);
  REQUIRE(written);
  CHECK(*written);
  CHECK(db.count("SELECT count(*) FROM rooms") == 1);
}

TEST_CASE("the worker holds a doubtful group's answers until the database says, and counts it",
          "[store][doubt]") {
  if (unavailable(Backend::postgres)) return;
  TestDb db(Backend::postgres);
  auto store = db.open();
  REQUIRE(store->create_room(sample_room("r")).ok());
  std::vector<std::string> log;
  std::mutex m;
  StoreWorker worker(
      std::move(store),
      [&](std::string line) {
        std::lock_guard lock(m);
        log.push_back(std::move(line));
      },
      GroupLimits{256, std::chrono::seconds(60)});
  // One group: a gate that lets the others queue behind it, a move, then the database stopped at
  // once and started again before the group's COMMIT.
  std::promise<void> gate;
  auto opened = gate.get_future().share();
  REQUIRE(worker.post([opened](Store&) { opened.wait(); }));
  std::promise<bool> answered;
  REQUIRE(worker.post([&answered](Store& s) {
    REQUIRE(s.append_action("r", 1, 1, Seat(1), Json{{"hole", 1}}).ok());
    s.after_commit([&answered](bool committed) { answered.set_value(committed); });
  }));
  REQUIRE(worker.post([](Store&) {
    PgCluster::get().stop();
    PgCluster::get().start();
  }));
  gate.set_value();

  auto answer = answered.get_future();
  REQUIRE(answer.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
  CHECK_FALSE(answer.get());  // told "not stored": the room writes its change again
  CHECK(db.count("SELECT count(*) FROM actions") == 0);
  const auto d = worker.doubts();
  CHECK(d.not_written == 1);
  CHECK(d.written == 0);
  worker.stop();
  std::lock_guard lock(m);
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) {
          return l.find("is in doubt") != std::string::npos;
        }) == 1);
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) {
          return l.find("the group in doubt was not written") != std::string::npos;
        }) == 1);
}
