#pragma once
// Every live connection, HTTP or WebSocket, so that shutdown can reach them all.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace tanbo_server::server {

class Connection {
 public:
  virtual ~Connection() = default;
  // Any thread: finish politely and end (WebSocket: queued frames, then going_away).
  virtual void shutdown() = 0;
};

// Holds weak references only: a connection lives while it has an operation pending and
// leaves the set from its destructor.
class ConnectionSet {
 public:
  // Returns the connection's id (never 0). After shutdown_all, a newcomer is shut down at once.
  std::uint64_t add(std::weak_ptr<Connection> c);
  void remove(std::uint64_t id);
  void shutdown_all();
  // True when the set emptied within the time.
  bool wait_empty(std::chrono::milliseconds timeout);
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::condition_variable emptied_;
  std::unordered_map<std::uint64_t, std::weak_ptr<Connection>> live_;
  // From a random start in each run: other nodes of a cluster address this node's connections
  // by id, and a frame they meant for a run that was killed must not reach one of this run's.
  std::uint64_t next_id_ = first_id();
  static std::uint64_t first_id();
  bool closing_ = false;
};

}  // namespace tanbo_server::server
