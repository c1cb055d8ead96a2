#include "server/metrics/log_budget.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace tanbo_server::server::metrics {

LogBudget::LogBudget(std::string what, Settings s)
    : what_(std::move(what)), settings_(s), tokens_(s.burst) {}

bool LogBudget::take() {
  std::uint64_t report = 0;
  double period = 0, rate = 0;
  bool ok;
  {
    std::lock_guard lock(mutex_);
    auto now = Clock::now();
    tokens_ =
        std::min(settings_.burst, tokens_ + std::chrono::duration<double>(now - refilled_).count() *
                                                settings_.per_second);
    refilled_ = now;
    ok = tokens_ >= 1;
    if (ok)
      tokens_ -= 1;
    else
      ++pending_, ++total_;
    if (pending_ > 0 && now - summarized_ >= settings_.summary_every) {
      report = pending_;
      period = std::chrono::duration<double>(now - summarized_).count();
      rate = settings_.per_second;
      pending_ = 0;
      summarized_ = now;
    }
  }
  // Outside the lock: the sink has a lock of its own.
  if (report > 0)
    spdlog::warn("{} {} not logged in the last {:.0f} s (server-wide log cap, {} lines/s)", report,
                 what_, period, rate);
  return ok;
}

void LogBudget::reset(Settings s) {
  std::lock_guard lock(mutex_);
  settings_ = s;
  tokens_ = s.burst;
  refilled_ = summarized_ = Clock::now();
  pending_ = total_ = 0;
}

std::uint64_t LogBudget::not_logged_total() const {
  std::lock_guard lock(mutex_);
  return total_;
}

LogBudget& rejection_log() {
  static LogBudget budget("rejected messages", {});
  return budget;
}

LogBudget& connection_refusal_log() {
  static LogBudget budget("refused connections and requests", {});
  return budget;
}

}  // namespace tanbo_server::server::metrics
