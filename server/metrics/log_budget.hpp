#pragma once
// A server-wide budget of log lines for one kind of event: a token bucket shared by every
// connection, so that a thousand flooding clients write a few lines a second, not a thousand.
// What the budget refuses is counted, and a periodic line says how many were not written.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace tanbo_server::server::metrics {

class LogBudget {
 public:
  using Clock = std::chrono::steady_clock;
  struct Settings {
    double per_second = 10;                           // lines a second, sustained
    double burst = 50;                                // lines at once
    std::chrono::milliseconds summary_every{10'000};  // at most one "not logged" line per period
  };

  explicit LogBudget(std::string what, Settings s);
  LogBudget(const LogBudget&) = delete;
  LogBudget& operator=(const LogBudget&) = delete;

  // True: the caller writes its line. False: the line is counted as not logged. Either way,
  // once a period has passed with lines not logged, a warning says how many (written here).
  bool take();
  // Starts over with a full bucket and nothing counted.
  void reset(Settings s);
  std::uint64_t not_logged_total() const;

 private:
  std::string what_;
  mutable std::mutex mutex_;  // one short critical section per rejection: cheaper than the line
  Settings settings_;
  double tokens_;
  Clock::time_point refilled_ = Clock::now();
  Clock::time_point summarized_ = Clock::now();
  std::uint64_t pending_ = 0;  // not logged since the last summary
  std::uint64_t total_ = 0;    // not logged, ever
};

// Rejected client messages (Client::refuse), the whole server's.
LogBudget& rejection_log();
// Refused connections and requests (WebSocket upgrades over a limit, foreign origins, bodies that
// are not JSON), the whole server's.
LogBudget& connection_refusal_log();

}  // namespace tanbo_server::server::metrics
