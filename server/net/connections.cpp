#include "server/net/connections.hpp"

#include <random>
#include <vector>

namespace tanbo_server::server {

std::uint64_t ConnectionSet::first_id() {
  std::random_device device;
  // Below 2^48: ids stay exact in any JSON reader however long the run.
  return (((std::uint64_t(device()) << 32) | device()) >> 16) + 1;
}

std::uint64_t ConnectionSet::add(std::weak_ptr<Connection> c) {
  std::uint64_t id;
  bool closing;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    live_.emplace(id, c);
    closing = closing_;
  }
  if (closing)
    if (auto sp = c.lock()) sp->shutdown();
  return id;
}

void ConnectionSet::remove(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  live_.erase(id);
  if (live_.empty()) emptied_.notify_all();
}

void ConnectionSet::shutdown_all() {
  std::vector<std::weak_ptr<Connection>> all;
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
    all.reserve(live_.size());
    for (auto& [id, c] : live_) all.push_back(c);
  }
  // Outside the lock: a connection's destructor, run here when ours was the last reference,
  // takes the lock in remove().
  for (auto& w : all)
    if (auto sp = w.lock()) sp->shutdown();
}

bool ConnectionSet::wait_empty(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  return emptied_.wait_for(lock, timeout, [&] { return live_.empty(); });
}

std::size_t ConnectionSet::size() const {
  std::lock_guard lock(mutex_);
  return live_.size();
}

}  // namespace tanbo_server::server
