#include "server/store/worker.hpp"

#include <exception>
#include <string>

namespace tanbo_server::server::store {

StoreWorker::StoreWorker(std::unique_ptr<Store> store, Log log, GroupLimits limits)
    : store_(std::move(store)), log_(std::move(log)), limits_(limits), thread_([this] { run(); }) {}

StoreWorker::~StoreWorker() { stop(); }

bool StoreWorker::post(Job job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return false;
    queue_.push_back(std::move(job));
  }
  wake_.notify_one();
  return true;
}

void StoreWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

bool StoreWorker::healthy() const {
  return !job_failed_.load(std::memory_order_relaxed) && store_->healthy();
}

StoreWorker::Doubts StoreWorker::doubts() const {
  return {written_after_doubt_.load(std::memory_order_relaxed),
          not_written_after_doubt_.load(std::memory_order_relaxed),
          unsettled_doubts_.load(std::memory_order_relaxed)};
}

std::size_t StoreWorker::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

bool StoreWorker::take(Job& job) {
  std::lock_guard lock(mutex_);
  if (queue_.empty()) return false;
  job = std::move(queue_.front());
  queue_.pop_front();
  return true;
}

void StoreWorker::run_job(Job& job) {
  // A job that throws while the database fails (a read it could not make) is the outage's, which
  // ends by itself; one that throws while it works is a fault of its own, said for good.
  try {
    job(*store_);
  } catch (const std::exception& e) {
    if (store_->healthy()) job_failed_.store(true, std::memory_order_relaxed);
    if (log_) log_(std::string("store: a job failed: ") + e.what());
  } catch (...) {
    job_failed_.store(true, std::memory_order_relaxed);
    if (log_) log_("store: a job failed with an unknown exception");
  }
  job = nullptr;  // what the job holds (a connection, a room) goes now, not with the next job
}

void StoreWorker::log_health() {
  const bool now = store_->healthy();  // the database's own: a job's fault is not an outage
  if (now == logged_healthy_) return;
  logged_healthy_ = now;
  if (!now) {
    failing_since_ = std::chrono::steady_clock::now();
    if (log_)
      log_("store: the database fails (" + store_->last_failure() +
           "); rooms refuse what they cannot store (store_unavailable) and try again");
    return;
  }
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(
      std::chrono::steady_clock::now() - failing_since_);
  if (log_)
    log_("store: the database works again after " + std::to_string(seconds.count()) +
         " s; rooms store and play on");
}

// Durable before visible: the answers held by after_commit run only once COMMIT returned.
void StoreWorker::end_group(std::size_t jobs) {
  std::string error;
  const bool committed = store_->end_group(error);
  auto answers = store_->take_after_commit();
  // Neither "stored" nor "not stored" would be true: a room told the second would write its
  // change again over itself. Its rooms wait, every other room goes on.
  if (!committed && store_->in_doubt()) {
    if (log_)
      log_("store: a group of " + std::to_string(jobs) +
           " jobs is in doubt (the connection broke during its COMMIT): its rooms wait until the "
           "database can say whether it was written");
    in_doubt_ = std::move(answers);
    return;
  }
  // While the database fails, log_health said so once: a retry's failure is not logged again.
  if (!committed && log_ && logged_healthy_)
    log_("store: a group of " + std::to_string(jobs) + " jobs was not committed: " + error);
  answer(answers, committed);
}

void StoreWorker::settle_doubt() {
  const auto committed = store_->resolve_doubt();
  if (!committed) return;
  if (log_)
    log_(std::string("store: the group in doubt was ") +
         (*committed ? "written after all" : "not written") + "; its rooms go on");
  (*committed ? written_after_doubt_ : not_written_after_doubt_)
      .fetch_add(1, std::memory_order_relaxed);
  auto answers = std::exchange(in_doubt_, {});
  answer(answers, *committed);
}

void StoreWorker::answer(std::vector<std::function<void(bool)>>& answers, bool committed) {
  for (auto& a : answers) {
    try {
      a(committed);
    } catch (const std::exception& e) {
      job_failed_.store(true, std::memory_order_relaxed);
      if (log_) log_(std::string("store: an answer failed: ") + e.what());
    } catch (...) {
      job_failed_.store(true, std::memory_order_relaxed);
      if (log_) log_("store: an answer failed with an unknown exception");
    }
  }
}

void StoreWorker::run() {
  using clock = std::chrono::steady_clock;
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      const auto ready = [this] { return stopping_ || !queue_.empty(); };
      // In doubt, the database is asked again every 200 ms, whether or not jobs come.
      if (in_doubt_.empty())
        wake_.wait(lock, ready);
      else
        wake_.wait_for(lock, std::chrono::milliseconds(200), ready);
      if (!in_doubt_.empty()) {
        lock.unlock();
        settle_doubt();
        lock.lock();
      }
      if (queue_.empty()) {
        if (!stopping_) continue;  // woken only to ask about the doubt
        // Draining done. A doubt still unsettled is answered "not stored": the rooms are
        // stopping too, and the next start reads what the database holds.
        lock.unlock();
        if (!in_doubt_.empty()) unsettled_doubts_.fetch_add(1, std::memory_order_relaxed);
        auto answers = std::exchange(in_doubt_, {});
        answer(answers, false);
        return;
      }
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    // A group that cannot begin leaves this job to run alone, as without groups; so does a doubt
    // not yet settled, which one group at a time keeps single. Its reads are answered if they
    // can be; its writes, where a lost COMMIT could not be asked about, fail and come again.
    if (!in_doubt_.empty() || !store_->begin_group()) {
      store_->refuse_lone_writes(true);
      run_job(job);
      store_->refuse_lone_writes(false);
      log_health();
      continue;
    }
    const auto deadline = clock::now() + limits_.time;
    std::size_t jobs = 1;
    run_job(job);
    while (jobs < limits_.jobs && clock::now() < deadline && take(job)) {
      run_job(job);
      ++jobs;
    }
    end_group(jobs);
    log_health();
  }
}

}  // namespace tanbo_server::server::store
