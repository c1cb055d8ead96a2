#pragma once
// Token buckets by key (an identity, an address): each key holds at most `burst` tokens and gets
// back `per_second` of them each second. A key whose bucket is full again is forgotten at the
// next sweep, and a sweep runs at most once per time a bucket takes to fill, so the table holds
// only the keys that spent lately, however many came and went. Not thread-safe: its owner locks.
#include <chrono>
#include <cstddef>
#include <string>
#include <unordered_map>

namespace tanbo_server::server {

class KeyedBuckets {
 public:
  using Clock = std::chrono::steady_clock;
  KeyedBuckets(double burst, double per_second);

  // True when `key` holds a whole token at `now` (a key not held holds a full bucket).
  bool has(const std::string& key, Clock::time_point now) const;
  // Spends one of `key`'s tokens; call after has().
  void spend(const std::string& key, Clock::time_point now);
  // Undoes a spend: one token back, never beyond the burst.
  void give_back(const std::string& key, Clock::time_point now);
  // How long until `key` holds a whole token: zero when it does.
  Clock::duration wait(const std::string& key, Clock::time_point now) const;
  // Drops the keys whose buckets are full again; does nothing if it did less than a fill ago.
  // spend() calls it: call it too where a table may go unspent for long.
  void forget_full(Clock::time_point now);
  std::size_t size() const { return buckets_.size(); }

 private:
  struct Bucket {
    double tokens;
    Clock::time_point at;
  };
  double tokens(const Bucket& b, Clock::time_point now) const;  // refilled to `now`

  const double burst_, per_second_;
  const Clock::duration fill_;  // an empty bucket to a full one
  std::unordered_map<std::string, Bucket> buckets_;
  Clock::time_point swept_{};
};

}  // namespace tanbo_server::server
