#include "server/identity/lookalikes.hpp"

#include <algorithm>

#include "protocol/lookalike/lookalike.hpp"

namespace tanbo_server::server {

ProtectedKeys protected_keys(std::string_view username, std::string_view name) {
  if (username.empty()) return {};
  return {protocol::lookalike_keys(username), protocol::lookalike_keys(name)};
}

void LookalikeIndex::set(const std::string& id, ProtectedKeys keys) {
  if (auto old = keys_.find(id); old != keys_.end()) {
    for (const auto* list : {&old->second.username, &old->second.name})
      for (const auto& k : *list) {
        auto [first, last] = holders_.equal_range(k);
        for (auto it = first; it != last;)
          it = it->second == id ? holders_.erase(it) : std::next(it);
      }
    keys_.erase(old);
  }
  if (keys.empty()) return;
  for (const auto* list : {&keys.username, &keys.name})
    for (const auto& k : *list) holders_.emplace(k, id);
  keys_.emplace(id, std::move(keys));
}

std::string LookalikeIndex::holder(const std::vector<std::string>& keys,
                                   const std::string& except) const {
  for (const auto& k : keys) {
    auto [first, last] = holders_.equal_range(k);
    auto it = std::find_if(first, last, [&](const auto& h) { return h.second != except; });
    if (it != last) return it->second;
  }
  return {};
}

}  // namespace tanbo_server::server
