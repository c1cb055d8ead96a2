#include "server/net/http_slots.hpp"

namespace tanbo_server::server {

std::uint64_t HttpSlots::take(std::weak_ptr<Connection> c, std::shared_ptr<Connection>& evicted) {
  std::lock_guard lock(mutex_);
  while (held_.size() >= max_ && !held_.empty()) {
    auto oldest = held_.begin();
    evicted = oldest->second.lock();
    held_.erase(oldest);
    if (evicted) break;  // one that is already gone made room by itself
  }
  std::uint64_t slot = next_++;
  held_.emplace(slot, std::move(c));
  return slot;
}

void HttpSlots::release(std::uint64_t slot) {
  if (slot == 0) return;
  std::lock_guard lock(mutex_);
  held_.erase(slot);
}

std::size_t HttpSlots::size() const {
  std::lock_guard lock(mutex_);
  return held_.size();
}

}  // namespace tanbo_server::server
