#include "server/limits/keyed_buckets.hpp"

#include <algorithm>

namespace tanbo_server::server {

KeyedBuckets::KeyedBuckets(double burst, double per_second)
    : burst_(burst),
      per_second_(per_second),
      fill_(std::chrono::duration_cast<Clock::duration>(
          std::chrono::duration<double>(std::max(1.0, burst / per_second)))) {}

double KeyedBuckets::tokens(const Bucket& b, Clock::time_point now) const {
  const double seconds = std::chrono::duration<double>(now - b.at).count();
  return std::min(burst_, b.tokens + std::max(0.0, seconds) * per_second_);
}

bool KeyedBuckets::has(const std::string& key, Clock::time_point now) const {
  auto it = buckets_.find(key);
  return it == buckets_.end() ? burst_ >= 1 : tokens(it->second, now) >= 1;
}

void KeyedBuckets::spend(const std::string& key, Clock::time_point now) {
  forget_full(now);
  Bucket& b = buckets_.try_emplace(key, Bucket{burst_, now}).first->second;
  b.tokens = tokens(b, now) - 1;
  b.at = now;
}

void KeyedBuckets::give_back(const std::string& key, Clock::time_point now) {
  auto it = buckets_.find(key);
  if (it == buckets_.end()) return;  // full already, and forgotten
  it->second.tokens = std::min(burst_, tokens(it->second, now) + 1);
  it->second.at = now;
}

KeyedBuckets::Clock::duration KeyedBuckets::wait(const std::string& key,
                                                 Clock::time_point now) const {
  auto it = buckets_.find(key);
  if (it == buckets_.end()) return Clock::duration::zero();
  const double missing = 1 - tokens(it->second, now);
  if (missing <= 0) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(missing / per_second_));
}

void KeyedBuckets::forget_full(Clock::time_point now) {
  if (now - swept_ < fill_) return;
  swept_ = now;
  std::erase_if(buckets_, [&](const auto& kv) { return tokens(kv.second, now) >= burst_; });
}

}  // namespace tanbo_server::server
