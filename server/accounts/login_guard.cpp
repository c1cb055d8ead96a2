#include "server/accounts/login_guard.hpp"

namespace tanbo::server::accounts {

std::chrono::milliseconds LoginGuard::locked_for(const std::string& address,
                                                 Clock::time_point now) {
  if (address.empty()) return {};
  std::lock_guard lock(mutex_);
  auto it = windows_.find(address);
  if (it == windows_.end() || it->second.failures < limit_) return {};
  auto left = it->second.since + period_ - now;
  if (left <= Clock::duration::zero()) {
    windows_.erase(it);
    return {};
  }
  return std::chrono::ceil<std::chrono::milliseconds>(left);
}

void LoginGuard::failed(const std::string& address, Clock::time_point now) {
  if (address.empty()) return;
  std::lock_guard lock(mutex_);
  // Windows that ended are dropped once a period, so the table holds recent failures only.
  if (now - swept_ > period_) {
    std::erase_if(windows_, [&](const auto& w) { return now - w.second.since > period_; });
    swept_ = now;
  }
  auto& w = windows_[address];
  if (w.failures == 0 || now - w.since > period_) w = Window{0, now};
  ++w.failures;
}

}  // namespace tanbo::server::accounts
