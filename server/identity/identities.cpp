#include "server/identity/identities.hpp"

#include <openssl/rand.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "engine/core/sha256.hpp"
#include "protocol/lookalike/lookalike.hpp"

#include "server/store/store.hpp"

namespace tanbo_server::server {

std::string token_hash(std::string_view token) { return engine::to_hex(engine::sha256(token)); }

std::string cut_utf8(std::string_view text, std::size_t max) {
  if (text.size() <= max) return std::string(text);
  std::size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return std::string(text.substr(0, n));
}

std::int64_t SessionExpiry::touch_every_ms() const {
  constexpr std::int64_t kHour = 3600 * 1000;
  return after_ms > 0 ? std::min(kHour, after_ms / 10) : kHour;
}

void IdentityTable::add(Identity identity, const std::string& token_hash, std::int64_t at) {
  if (!token_hash.empty()) tokens_[token_hash] = TokenUse{identity.id, at, at};
  auto id = identity.id;
  identities_.insert_or_assign(std::move(id), std::move(identity));
}

std::optional<Identity> IdentityTable::by_token_hash(const std::string& hash) const {
  auto t = tokens_.find(hash);
  if (t == tokens_.end()) return std::nullopt;
  return identities_.at(t->second.id);
}

TokenUse* IdentityTable::token(const std::string& hash) {
  auto t = tokens_.find(hash);
  return t == tokens_.end() ? nullptr : &t->second;
}

const Identity* IdentityTable::by_id(const std::string& id) const {
  auto it = identities_.find(id);
  return it == identities_.end() ? nullptr : &it->second;
}

Identity* IdentityTable::by_id(const std::string& id) {
  auto it = identities_.find(id);
  return it == identities_.end() ? nullptr : &it->second;
}

void IdentityTable::add_token(const std::string& id, const std::string& hash,
                              std::int64_t last_used, bool access) {
  if (identities_.contains(id)) tokens_[hash] = TokenUse{id, last_used, last_used, access};
}

void IdentityTable::remove_token(const std::string& hash) { tokens_.erase(hash); }

void IdentityTable::set_bot_flags(const std::string& id, bool bot, bool play_bots) {
  if (Identity* i = by_id(id)) {
    i->bot = bot;
    i->play_bots = play_bots;
  }
}

void IdentityTable::remove_tokens(const std::string& id, const std::string& keep_hash,
                                  bool access_too) {
  std::erase_if(tokens_, [&](const auto& t) {
    return t.second.id == id && t.first != keep_hash && (access_too || !t.second.access);
  });
}

std::string random_hex(std::size_t n) {
  std::vector<std::uint8_t> bytes(n);
  if (RAND_bytes(bytes.data(), static_cast<int>(n)) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return engine::to_hex(bytes);
}

std::string new_access_token() { return std::string(kAccessTokenPrefix).append(random_hex(32)); }

NewIdentity MemoryIdentities::create_guest(std::string_view name, std::string_view) {
  NewIdentity out;
  out.token = random_hex(32);
  // append() throughout: GCC 12 misreports `"literal" + std::string` under -Wrestrict.
  out.identity.id = std::string("p").append(random_hex(6));
  out.identity.name =
      name.empty() ? std::string("Guest ").append(out.identity.id, 1, 4) : std::string(name);
  std::lock_guard lock(mutex_);
  table_.add(out.identity, token_hash(out.token));
  return out;
}

std::optional<Identity> MemoryIdentities::find(std::string_view token) {
  std::lock_guard lock(mutex_);
  return table_.by_token_hash(token_hash(token));
}

std::optional<Identity> MemoryIdentities::by_id(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const Identity* i = table_.by_id(id);
  return i ? std::optional(*i) : std::nullopt;
}

std::string MemoryIdentities::issue_token(const std::string& id, std::string_view) {
  std::string token = random_hex(32);
  std::lock_guard lock(mutex_);
  table_.add_token(id, token_hash(token));
  return token;
}

void MemoryIdentities::revoke_token(std::string_view token) {
  std::lock_guard lock(mutex_);
  table_.remove_token(token_hash(token));
}

bool MemoryIdentities::end_session(const std::string& id, const std::string& hash) {
  std::lock_guard lock(mutex_);
  const TokenUse* use = table_.token(hash);
  if (!use || use->id != id) return false;
  table_.remove_token(hash);
  return true;
}

// Without a store of its own (MemoryIdentities), the job's store has nothing of the tokens.
std::string Identities::issue_token_in(store::Store&, const std::string& id,
                                       std::string_view agent) {
  return issue_token(id, agent);
}

void Identities::revoke_tokens_in(store::Store&, const std::string& id, std::string_view keep) {
  revoke_tokens(id, keep);
}

void MemoryIdentities::revoke_tokens(const std::string& id, std::string_view keep) {
  std::lock_guard lock(mutex_);
  table_.remove_tokens(id, keep.empty() ? std::string() : token_hash(keep));
}

void MemoryIdentities::set_username(const std::string& id, std::string username) {
  std::lock_guard lock(mutex_);
  Identity* i = table_.by_id(id);
  if (!i) return;
  i->username = std::move(username);
  lookalikes_.set(id, protected_keys(i->username, i->name));
}

void MemoryIdentities::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  lookalikes_.erase(id);
  table_.remove_tokens(id, {}, true);
  if (Identity* i = table_.by_id(id)) *i = Identity{id, std::string(store::kDeletedPlayer), {}};
  standing_.erase(id);
}

// Without a store of its own, the token is kept in memory only.
std::string MemoryIdentities::issue_access_token_in(store::Store&, const std::string& id,
                                                    std::string_view) {
  std::string token = new_access_token();
  std::lock_guard lock(mutex_);
  if (!table_.contains(id)) return {};
  table_.add_token(id, token_hash(token), 0, true);
  return token;
}

void MemoryIdentities::note_bot_flags(const std::string& id, bool bot, bool play_bots) {
  std::lock_guard lock(mutex_);
  table_.set_bot_flags(id, bot, play_bots);
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
  Identity* i = table_.by_id(id);
  if (!i) return;
  i->name = name;
  if (!i->username.empty()) lookalikes_.set(id, protected_keys(i->username, i->name));
}

std::optional<std::string> MemoryIdentities::lookalike_holder(std::string_view name,
                                                              const std::string& except) const {
  const auto keys = protocol::lookalike_keys(name);
  std::lock_guard lock(mutex_);
  auto holder = lookalikes_.holder(keys, except);
  return holder.empty() ? std::nullopt : std::optional(std::move(holder));
}

}  // namespace tanbo_server::server
