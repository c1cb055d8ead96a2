#pragma once
// The chat's limits on a node (docs/protocol.md, "Chat"): a bucket per identity, shared by all of
// its connections here (5 lines at once, then one a second), and one per address, shared by the
// identities there (30 at once, then five a second: a household or a classroom behind one
// address). A line takes a token of each or of none; a line refused after that gives them back.
// Both tables forget whoever has not chatted lately. Safe from any thread.
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>

#include "server/limits/keyed_buckets.hpp"

namespace tanbo_server::server {

class ChatLimits {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Verdict { taken, identity_limited, address_limited };
  ChatLimits();  // the figures of protocol/limits.hpp
  // One line of `identity` from `address` (empty: unknown or the machine itself, not limited by
  // address): taken, or refused by the bucket named, which then took nothing.
  Verdict take(const std::string& identity, const std::string& address,
               Clock::time_point now = Clock::now());
  // The line taken was refused after all (a closed channel, a repeat): its tokens come back.
  void give_back(const std::string& identity, const std::string& address,
                 Clock::time_point now = Clock::now());
  std::size_t held() const;  // identities and addresses kept, together

 private:
  mutable std::mutex mutex_;
  KeyedBuckets identities_, addresses_;
};

}  // namespace tanbo_server::server
