#include "server/identity/identities.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/core/sha256.hpp"

namespace tanbo::server {
namespace {

std::string token_hash(std::string_view token) {
  auto d = engine::sha256(token);
  return engine::to_hex(d);
}

}  // namespace

std::string random_hex(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  if (RAND_bytes(bytes.data(), static_cast<int>(n)) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return engine::to_hex(bytes);
}

NewIdentity MemoryIdentities::create_guest(std::string_view name) {
  NewIdentity out;
  out.token = random_hex(32);
  // append() throughout: GCC 12 misreports `"literal" + std::string` under -Wrestrict.
  out.identity.id = std::string("p").append(random_hex(6));
  out.identity.name =
      name.empty() ? std::string("Guest ").append(out.identity.id, 1, 4) : std::string(name);
  std::string hash = token_hash(out.token);
  std::lock_guard lock(mutex_);
  by_hash_[hash] = out.identity;
  hash_of_[out.identity.id] = hash;
  return out;
}

std::optional<Identity> MemoryIdentities::find(std::string_view token) {
  std::string hash = token_hash(token);
  std::lock_guard lock(mutex_);
  auto it = by_hash_.find(hash);
  if (it == by_hash_.end()) return std::nullopt;
  return it->second;
}

std::optional<Identity> MemoryIdentities::by_id(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto h = hash_of_.find(id);
  if (h == hash_of_.end()) return std::nullopt;
  return by_hash_.at(h->second);
}

Standing MemoryIdentities::standing(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = standing_.find(id);
  return it == standing_.end() ? Standing{} : it->second;
}

// Kept sorted: the rooms look a sender up in it by binary search.
void apply_mute(std::vector<std::string>& mutes, const std::string& muted, bool on) {
  auto it = std::lower_bound(mutes.begin(), mutes.end(), muted);
  const bool there = it != mutes.end() && *it == muted;
  if (on && !there) mutes.insert(it, muted);
  if (!on && there) mutes.erase(it);
}

void MemoryIdentities::set_mute(const std::string& id, const std::string& muted, bool on) {
  std::lock_guard lock(mutex_);
  apply_mute(standing_[id].mutes, muted, on);
}

void MemoryIdentities::set_shadow_mute(const std::string& id, std::int64_t until) {
  std::lock_guard lock(mutex_);
  standing_[id].shadow_until = until;
}

void MemoryIdentities::set_ban(const std::string& id, bool banned) {
  std::lock_guard lock(mutex_);
  standing_[id].banned = banned;
}

void MemoryIdentities::rename(const std::string& id, std::string_view name) {
  std::lock_guard lock(mutex_);
  auto h = hash_of_.find(id);
  if (h != hash_of_.end()) by_hash_[h->second].name = name;
}

}  // namespace tanbo::server
