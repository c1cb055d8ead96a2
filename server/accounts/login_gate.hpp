#pragma once
// What one node lets through to a password check (docs/operations.md, "Security"):
// - at most `per_account` checks at a time for one account and `per_address` for one address,
//   so that attempts sent together queue behind the account's count in the store instead of
//   racing past it, and one address cannot fill the hashing queue;
// - attempts counted per address as they arrive: `failures_per_address` within `period` make the
//   address wait until the period that began with its first one ends; a right password gives its
//   attempt back;
// - a device that holds a token of the account waits by its own failures, on the same schedule
//   as an account (wait_after), never by the account's: whoever else guesses, the owner's device
//   still gets in.
// In memory and per node; the account's own count is the store's, shared by a cluster. Safe from
// any thread.
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <variant>

namespace tanbo_server::server::accounts {

class LoginGate {
 public:
  using Clock = std::chrono::steady_clock;
  struct Limits {
    int per_account = 1;
    int per_address = 2;
    int failures_per_address = 20;
    std::chrono::milliseconds period{15 * 60 * 1000};
  };
  // Holds an admitted attempt's places in the account's and the address's counts of checks under
  // way; the last copy to go gives them back.
  class Pass {
   public:
    Pass() = default;
    void release() { slot_.reset(); }

   private:
    friend class LoginGate;
    std::shared_ptr<void> slot_;
  };
  enum class Refusal {
    busy,            // a check for the account or the address is under way
    address_locked,  // too many attempts from the address (`retry_after`)
  };
  struct Refused {
    Refusal why;
    std::chrono::milliseconds retry_after;
  };

  explicit LoginGate(Limits limits);
  ~LoginGate();

  // An attempt for `account` (a username key) from `address` (a limit key; empty for the
  // machine itself, which no address count holds back).
  std::variant<Pass, Refused> admit(const std::string& address, const std::string& account,
                                    Clock::time_point now);
  // The password was right: the address gets its attempt back, the device's wait ends.
  void succeeded(const std::string& address, const std::string& device);
  // Whether `device` (a token's hash) may be checked now; if so its attempt is counted and its
  // next one waits wait_after(its attempts).
  bool device_turn(const std::string& device, Clock::time_point now,
                   const std::function<std::chrono::milliseconds(int attempts)>& wait_after);

 private:
  struct Table;
  std::shared_ptr<Table> table_;  // shared with the passes, which may outlive the gate
};

}  // namespace tanbo_server::server::accounts
