#include <chrono>
#include <mutex>
#include <thread>

#include "server/store/worker.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;

TEST_CASE("the worker runs jobs in order off the caller's thread and drains on stop",
          "[store][worker]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  std::vector<int> order;
  std::vector<bool> written;
  std::thread::id ran_on;
  {
    StoreWorker worker(db.open());
    // A slow first job keeps the rest queued when stop() is called.
    REQUIRE(worker.post([&](Store& s) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ran_on = std::this_thread::get_id();
      written.push_back(s.create_room(sample_room("r")).ok());
    }));
    for (int i = 0; i < 100; ++i)
      REQUIRE(worker.post([&order, &written, i](Store& s) {
        order.push_back(i);
        written.push_back(s.append_action("r", 1, i + 1, i % 2, Json{{"hole", i % 6}}).ok());
      }));
    worker.stop();
    CHECK(worker.queued() == 0);
    SECTION("nothing is accepted after stop") {
      CHECK_FALSE(worker.post([](Store&) {}));
    }
  }
  CHECK(ran_on != std::this_thread::get_id());
  REQUIRE(order.size() == 100);
  for (int i = 0; i < 100; ++i) CHECK(order[std::size_t(i)] == i);
  CHECK(written == std::vector<bool>(101, true));
  SECTION("what the drained jobs wrote is in the database, in order") {
    auto store = db.open();
    auto rooms = store->load_unfinished({});
    REQUIRE(rooms.size() == 1);
    CHECK(rooms[0].version == 100);
    REQUIRE(rooms[0].actions.size() == 100);
    CHECK(rooms[0].actions[99].action == Json{{"hole", 99 % 6}});
  }
}

TEST_CASE("the worker turns unhealthy when a job throws, and keeps running", "[store][worker]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  std::vector<std::string> log;
  std::mutex m;
  StoreWorker worker(db.open(), [&](std::string l) {
    std::lock_guard lock(m);
    log.push_back(std::move(l));
  });
  CHECK(worker.healthy());
  worker.post([](Store&) { throw StoreError("disk on fire"); });
  bool ran = false;
  worker.post([&](Store&) { ran = true; });
  worker.stop();
  CHECK(ran);
  CHECK_FALSE(worker.healthy());
  REQUIRE(log.size() == 1);
  CHECK_THAT(log[0], Catch::Contains("disk on fire"));
}
