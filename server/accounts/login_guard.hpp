#pragma once
// Failed logins per address (docs/operations.md, "Accounts"): `limit` failures within one
// lockout period lock the address until the period that began at its first failure ends. In
// memory, per node; the per-account count is the store's, shared by a cluster. Safe from any
// thread.
#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tanbo::server::accounts {

class LoginGuard {
 public:
  using Clock = std::chrono::steady_clock;
  LoginGuard(int limit, std::chrono::milliseconds period) : limit_(limit), period_(period) {}
  // How long `address` is still locked; zero when it may try. An empty address never is.
  std::chrono::milliseconds locked_for(const std::string& address, Clock::time_point now);
  void failed(const std::string& address, Clock::time_point now);

 private:
  struct Window {
    int failures = 0;
    Clock::time_point since;
  };
  const int limit_;
  const std::chrono::milliseconds period_;
  std::mutex mutex_;
  std::unordered_map<std::string, Window> windows_;
  Clock::time_point swept_{};
};

}  // namespace tanbo::server::accounts
