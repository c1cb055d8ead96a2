#include "server/identity/guest_limit.hpp"

#include <algorithm>
#include <iterator>

namespace tanbo_server::server {

bool GuestLimit::allow(const std::string& address, Clock::time_point now) {
  if (address.empty()) return true;
  std::lock_guard lock(mutex_);
  auto refill = [&](Bucket& b) {
    double minutes = std::chrono::duration<double>(now - b.at).count() / 60;
    b.tokens = std::min(per_minute_, b.tokens + minutes * per_minute_);
    b.at = now;
  };
  if (now - swept_ >= std::chrono::minutes(1)) {  // the full buckets are the forgotten ones
    for (auto it = buckets_.begin(); it != buckets_.end();) {
      refill(it->second);
      it = it->second.tokens >= per_minute_ ? buckets_.erase(it) : std::next(it);
    }
    swept_ = now;
  }
  auto [it, fresh] = buckets_.try_emplace(address, Bucket{per_minute_, now});
  Bucket& b = it->second;
  if (!fresh) refill(b);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace tanbo_server::server
