#pragma once
// New guest identities per address (--guests-per-minute): a token bucket per address that
// refills the whole allowance in a minute, forgotten once full again, so the table only holds
// the addresses that made guests in the last minute. Safe from any thread.
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tanbo_server::server {

class GuestLimit {
 public:
  using Clock = std::chrono::steady_clock;
  explicit GuestLimit(unsigned per_minute) : per_minute_(double(per_minute)) {}
  // True, spending one, when `address` may make a new identity now; an empty address (unknown)
  // always may.
  bool allow(const std::string& address, Clock::time_point now = Clock::now());

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  const double per_minute_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
  Clock::time_point swept_{};
};

}  // namespace tanbo_server::server
