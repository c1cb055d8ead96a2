#pragma once
// The thread that hashes and checks passwords, one at a time: a hash takes 64 MiB and about a
// tenth of a second, and a burst of logins must not starve the network threads or the store.
// Work waits in one queue per address, and the addresses are served in turn, so that a burst
// from one address delays another's login by about one hash per address waiting, not by the
// whole burst. At most `capacity` jobs wait in all; beyond, post() refuses and the caller
// answers at once.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

namespace tanbo_server::server::accounts {

class HashingQueue {
 public:
  explicit HashingQueue(std::size_t capacity);
  ~HashingQueue();  // stop()
  HashingQueue(const HashingQueue&) = delete;
  HashingQueue& operator=(const HashingQueue&) = delete;

  // Queues `job` behind the other jobs of `address` (a limit key); false when the queue is full
  // or stopped, and then `job` never runs.
  bool post(const std::string& address, std::function<void()> job);
  // Lets the job under way finish, drops the others unrun, and joins the thread. Idempotent.
  void stop();

 private:
  void run();

  const std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable work_;
  std::unordered_map<std::string, std::deque<std::function<void()>>> waiting_;  // by address
  std::deque<std::string> turns_;  // the addresses with work, in the order they are served
  std::size_t queued_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: starts once the rest is ready
};

}  // namespace tanbo_server::server::accounts
