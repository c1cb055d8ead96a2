#include "server/net/address_counts.hpp"

#include <utility>

namespace tanbo_server::server {

AddressPlace::AddressPlace(AddressPlace&& other) noexcept
    : counts_(std::exchange(other.counts_, nullptr)), key_(std::move(other.key_)) {}

AddressPlace& AddressPlace::operator=(AddressPlace&& other) noexcept {
  if (this != &other) {
    release();
    counts_ = std::exchange(other.counts_, nullptr);
    key_ = std::move(other.key_);
  }
  return *this;
}

void AddressPlace::release() {
  if (auto* counts = std::exchange(counts_, nullptr)) counts->give_back(key_);
}

std::optional<AddressPlace> AddressCounts::take(const std::string& key, std::size_t max) {
  if (key.empty()) return AddressPlace();
  std::lock_guard lock(mutex_);
  auto& n = held_[key];
  if (n >= max) {
    if (n == 0) held_.erase(key);
    return std::nullopt;
  }
  ++n;
  return AddressPlace(this, key);
}

std::size_t AddressCounts::held(const std::string& key) const {
  std::lock_guard lock(mutex_);
  auto it = held_.find(key);
  return it == held_.end() ? 0 : it->second;
}

void AddressCounts::give_back(const std::string& key) {
  std::lock_guard lock(mutex_);
  auto it = held_.find(key);
  if (it != held_.end() && --it->second == 0) held_.erase(it);
}

}  // namespace tanbo_server::server
