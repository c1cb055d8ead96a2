#include "server/accounts/login_gate.hpp"

#include <mutex>
#include <unordered_map>

namespace tanbo_server::server::accounts {

namespace {

using Clock = LoginGate::Clock;

// Drops the entries `stale` says are over, at most once a period, so the tables hold only what
// happened lately however many addresses and devices come and go.
template <class Map, class Stale>
void sweep(Map& map, Clock::time_point& swept, Clock::time_point now,
           std::chrono::milliseconds period, Stale stale) {
  if (now - swept < period) return;
  std::erase_if(map, [&](const auto& e) { return stale(e.second); });
  swept = now;
}

}  // namespace

struct LoginGate::Table {
  // An address's attempts in the period that began with the first of them.
  struct Window {
    int attempts = 0;
    Clock::time_point since;
  };
  // A device's attempts, and when it may try again.
  struct DeviceWait {
    int attempts = 0;
    Clock::time_point next_at;
    Clock::time_point last;
  };

  explicit Table(Limits l) : limits(l) {}
  const Limits limits;
  std::mutex mutex;
  std::unordered_map<std::string, int> checking_account, checking_address;
  std::unordered_map<std::string, Window> windows;  // by address
  std::unordered_map<std::string, DeviceWait> devices;
  Clock::time_point windows_swept{}, devices_swept{};

  // Under the lock.
  void leave(const std::string& address, const std::string& account) {
    if (--checking_account[account] == 0) checking_account.erase(account);
    if (!address.empty() && --checking_address[address] == 0) checking_address.erase(address);
  }
};

LoginGate::LoginGate(Limits limits) : table_(std::make_shared<Table>(limits)) {}
LoginGate::~LoginGate() = default;

std::variant<LoginGate::Pass, LoginGate::Refused> LoginGate::admit(const std::string& address,
                                                                   const std::string& account,
                                                                   Clock::time_point now) {
  auto& t = *table_;
  std::lock_guard lock(t.mutex);
  const auto& limits = t.limits;
  if (!address.empty()) {
    sweep(t.windows, t.windows_swept, now, limits.period,
          [&](const Table::Window& w) { return now - w.since > limits.period; });
    auto it = t.windows.find(address);
    if (it != t.windows.end() && now - it->second.since > limits.period) {
      t.windows.erase(it);
      it = t.windows.end();
    }
    if (it != t.windows.end() && it->second.attempts >= limits.failures_per_address)
      return Refused{Refusal::address_locked, std::chrono::ceil<std::chrono::milliseconds>(
                                                  it->second.since + limits.period - now)};
    if (t.checking_address[address] >= limits.per_address)
      return Refused{Refusal::busy, std::chrono::seconds(1)};
  }
  if (t.checking_account[account] >= limits.per_account) {
    if (!address.empty() && t.checking_address[address] == 0) t.checking_address.erase(address);
    return Refused{Refusal::busy, std::chrono::seconds(1)};
  }
  ++t.checking_account[account];
  if (!address.empty()) {
    ++t.checking_address[address];
    auto& w = t.windows[address];
    if (w.attempts == 0) w.since = now;
    ++w.attempts;
  }
  Pass pass;
  pass.slot_ = std::shared_ptr<void>(nullptr, [table = table_, address, account](void*) {
    std::lock_guard lock(table->mutex);
    table->leave(address, account);
  });
  return pass;
}

void LoginGate::succeeded(const std::string& address, const std::string& device) {
  auto& t = *table_;
  std::lock_guard lock(t.mutex);
  if (!address.empty())
    if (auto it = t.windows.find(address); it != t.windows.end() && it->second.attempts > 0)
      --it->second.attempts;
  if (!device.empty()) t.devices.erase(device);
}

bool LoginGate::device_turn(
    const std::string& device, Clock::time_point now,
    const std::function<std::chrono::milliseconds(int attempts)>& wait_after) {
  auto& t = *table_;
  std::lock_guard lock(t.mutex);
  sweep(t.devices, t.devices_swept, now, t.limits.period, [&](const Table::DeviceWait& d) {
    return now - d.last > t.limits.period && now >= d.next_at;
  });
  auto& d = t.devices[device];
  if (now < d.next_at) return false;
  ++d.attempts;
  d.last = now;
  d.next_at = now + wait_after(d.attempts);
  return true;
}

}  // namespace tanbo_server::server::accounts
