#include "server/accounts/hashing_queue.hpp"

namespace tanbo_server::server::accounts {

HashingQueue::HashingQueue(std::size_t capacity)
    : capacity_(capacity), thread_([this] { run(); }) {}

HashingQueue::~HashingQueue() { stop(); }

bool HashingQueue::post(const std::string& address, std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || queued_ >= capacity_) return false;
    auto& queue = waiting_[address];
    if (queue.empty()) turns_.push_back(address);
    queue.push_back(std::move(job));
    ++queued_;
  }
  work_.notify_one();
  return true;
}

void HashingQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_.notify_one();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  std::lock_guard lock(mutex_);
  waiting_.clear();  // dropped unrun: what they hold goes here, not on the stopped thread
  turns_.clear();
  queued_ = 0;
}

void HashingQueue::run() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      work_.wait(lock, [this] { return stopping_ || !turns_.empty(); });
      if (stopping_) return;
      // The address at the front gives one job, and goes to the back if it has more.
      std::string address = std::move(turns_.front());
      turns_.pop_front();
      auto it = waiting_.find(address);
      job = std::move(it->second.front());
      it->second.pop_front();
      --queued_;
      if (it->second.empty())
        waiting_.erase(it);
      else
        turns_.push_back(std::move(address));
    }
    job();
  }
}

}  // namespace tanbo_server::server::accounts
