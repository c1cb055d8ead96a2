#include "server/store/worker.hpp"

#include <exception>

namespace tanbo::server::store {

StoreWorker::StoreWorker(std::unique_ptr<Store> store, Log log)
    : store_(std::move(store)), log_(std::move(log)), thread_([this] { run(); }) {}

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

std::size_t StoreWorker::queued() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

void StoreWorker::run() {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      // Draining: a stop waits for every job queued before it.
      if (queue_.empty()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
    }
    try {
      job(*store_);
    } catch (const std::exception& e) {
      job_failed_.store(true, std::memory_order_relaxed);
      if (log_) log_(std::string("store: a job failed: ") + e.what());
    } catch (...) {
      job_failed_.store(true, std::memory_order_relaxed);
      if (log_) log_("store: a job failed with an unknown exception");
    }
  }
}

}  // namespace tanbo::server::store
