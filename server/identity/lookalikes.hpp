#pragma once
// The names accounts protect (docs/protocol.md, "Names"): an account's username and its holder's
// display name, by their lookalike keys (protocol/lookalike/). A name another identity chooses
// (hello's name, a claim's username) may share no key with them: name_reserved. A guest's name
// protects nothing, so two guests may share one; the page marks account holders.
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tanbo_server::server {

// The keys an identity protects: none for a guest (empty username).
struct ProtectedKeys {
  std::vector<std::string> username, name;
  bool empty() const { return username.empty() && name.empty(); }
  friend bool operator==(const ProtectedKeys&, const ProtectedKeys&) = default;
};
ProtectedKeys protected_keys(std::string_view username, std::string_view name);

// The protected keys of every account, in memory; not thread-safe (its owner locks).
class LookalikeIndex {
 public:
  // `id` protects `keys` from now on (empty: nothing).
  void set(const std::string& id, ProtectedKeys keys);
  void erase(const std::string& id) { set(id, {}); }
  // An identity other than `except` that protects one of `keys`; empty for none.
  std::string holder(const std::vector<std::string>& keys, const std::string& except) const;
  std::size_t size() const { return keys_.size(); }

 private:
  std::unordered_map<std::string, ProtectedKeys> keys_;        // by identity
  std::unordered_multimap<std::string, std::string> holders_;  // key -> identity
};

}  // namespace tanbo_server::server
