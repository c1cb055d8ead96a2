#include "server/rooms/chat_limits.hpp"

#include "protocol/limits.hpp"

namespace tanbo_server::server {

ChatLimits::ChatLimits()
    : identities_(protocol::kChatBurst, protocol::kChatPerSecond),
      addresses_(protocol::kChatAddressBurst, protocol::kChatAddressPerSecond) {}

ChatLimits::Verdict ChatLimits::take(const std::string& identity, const std::string& address,
                                     Clock::time_point now) {
  std::lock_guard lock(mutex_);
  addresses_.forget_full(now);  // lines from this machine alone would never sweep it
  if (!identities_.has(identity, now)) return Verdict::identity_limited;
  if (!address.empty() && !addresses_.has(address, now)) return Verdict::address_limited;
  identities_.spend(identity, now);
  if (!address.empty()) addresses_.spend(address, now);
  return Verdict::taken;
}

void ChatLimits::give_back(const std::string& identity, const std::string& address,
                           Clock::time_point now) {
  std::lock_guard lock(mutex_);
  identities_.give_back(identity, now);
  if (!address.empty()) addresses_.give_back(address, now);
}

std::size_t ChatLimits::held() const {
  std::lock_guard lock(mutex_);
  return identities_.size() + addresses_.size();
}

}  // namespace tanbo_server::server
