#pragma once
// One background thread that owns the Store: the network threads never wait on the disk. Jobs
// run one at a time in the order they were posted; a job that must answer posts its answer to
// wherever its caller lives (a room's strand), so the worker knows nothing of the network.
//
// Group commit: the worker opens one transaction, runs every job queued at that moment in it (at
// most GroupLimits::jobs, or until GroupLimits::time of work has passed) and commits once, so under
// load the cost of a commit is paid per group, not per write. A job's answer that says "committed"
// must go through Store::after_commit, which the worker runs once the group's COMMIT returned.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "server/store/store.hpp"

namespace tanbo_server::server::store {

// A group's bounds: what a commit may wait for, so that a burst does not delay the first answer.
struct GroupLimits {
  std::size_t jobs = 256;
  std::chrono::microseconds time{5000};
};

class StoreWorker {
 public:
  using Job = std::function<void(Store&)>;

  // Starts the thread. `log` (may be empty) receives what a job let escape.
  explicit StoreWorker(std::unique_ptr<Store> store, Log log = {}, GroupLimits limits = {});
  // Stops as stop() does.
  ~StoreWorker();
  StoreWorker(const StoreWorker&) = delete;
  StoreWorker& operator=(const StoreWorker&) = delete;

  // Queues a job; false (and the job is dropped) once stop() has begun.
  bool post(Job job);
  // Graceful stop: refuses new jobs, runs every job already queued, then joins the thread.
  // Idempotent; call it from any thread but the worker's own.
  void stop();

  // False while the database fails (from a failed write, read or commit until a commit succeeds
  // again), and for good once a job threw while the database did not fail (a refused journal
  // write, a bug): /healthz reports "degraded".
  bool healthy() const;
  // Groups whose COMMIT lost its answer, by how each was settled: written, not written, or left
  // unsettled at a shutdown (answered "not stored").
  struct Doubts {
    std::uint64_t written = 0, not_written = 0, unsettled = 0;
  };
  Doubts doubts() const;
  std::size_t queued() const;

 private:
  void run();
  bool take(Job& job);  // the next queued job, if any
  void run_job(Job& job);
  void end_group(std::size_t jobs);
  // The answers of a group whose COMMIT's outcome is unknown wait until the database says it.
  void settle_doubt();
  void answer(std::vector<std::function<void(bool)>>& answers, bool committed);
  // One log line when the database starts failing and one when it works again, not one per
  // write (a room retrying a move writes again every few seconds).
  void log_health();

  std::unique_ptr<Store> store_;
  Log log_;
  GroupLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Job> queue_;
  std::vector<std::function<void(bool)>> in_doubt_;  // the worker thread's own
  bool stopping_ = false;
  std::atomic<bool> job_failed_{false};
  std::atomic<std::uint64_t> written_after_doubt_{0}, not_written_after_doubt_{0},
      unsettled_doubts_{0};
  bool logged_healthy_ = true;  // what log_health said last
  std::chrono::steady_clock::time_point failing_since_{};
  std::thread thread_;  // last: starts once everything above exists
};

}  // namespace tanbo_server::server::store
