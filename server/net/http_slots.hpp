#pragma once
// The HTTP connections that are not (yet) WebSockets have a limit of their own, so that sockets
// which never finish a request cannot take the descriptors players need. At the limit the
// oldest one makes room for the newcomer: a client stalling on purpose is the likeliest to be
// the oldest, and a real one finishes its upgrade in milliseconds.
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>

#include "server/net/connections.hpp"

namespace tanbo_server::server {

class HttpSlots {
 public:
  explicit HttpSlots(std::size_t max) : max_(max) {}
  // Takes a slot for `c` (never 0). When every slot was taken, the oldest holder is given back
  // in `evicted`, for the caller to shut down outside any lock.
  std::uint64_t take(std::weak_ptr<Connection> c, std::shared_ptr<Connection>& evicted);
  void release(std::uint64_t slot);  // 0: nothing
  std::size_t size() const;

 private:
  const std::size_t max_;
  mutable std::mutex mutex_;
  std::map<std::uint64_t, std::weak_ptr<Connection>> held_;  // by age: slots only rise
  std::uint64_t next_ = 1;
};

}  // namespace tanbo_server::server
