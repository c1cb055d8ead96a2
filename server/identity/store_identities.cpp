#include "server/identity/store_identities.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <type_traits>
#include <utility>

#include "protocol/lookalike/lookalike.hpp"
#include "protocol/text.hpp"
#include "server/identity/store_writes.hpp"
#include "server/store/bot_rows.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

using store_writes::require;

namespace {

Identity from_store(store::Identity i) {
  return Identity{std::move(i.id), std::move(i.name), std::move(i.username), i.bot, i.play_bots};
}

// Runs lookup(store) on the store's thread and waits for its answer (an optional); a store that
// fails, or is stopped, is a miss.
template <class Lookup, class Found = std::invoke_result_t<Lookup&, store::Store&>>
Found ask_store(store::StoreWorker& worker, const std::string& what, Lookup lookup) {
  // Shared with the job: a job dropped unrun breaks the promise instead of leaving it dangling.
  auto answer = std::make_shared<std::promise<Found>>();
  auto found = answer->get_future();
  bool posted = worker.post([answer, lookup = std::move(lookup)](store::Store& s) {
    try {
      answer->set_value(lookup(s));
    } catch (...) {
      answer->set_exception(std::current_exception());
    }
  });
  try {
    if (!posted) throw store::StoreError("the store is stopped");
    return found.get();
  } catch (const std::exception& e) {
    spdlog::warn("identities: {} cannot be looked up in the store, taken as unknown: {}", what,
                 e.what());
    return std::nullopt;
  }
}

// A username claimed before names were kept in NFKC ("Ｇｉｌ") is found by its NFKC form now, the
// form a login's username takes: the account is given it, unless another account has it.
void renormalize(store::Store& s, Identity& account) {
  auto checked = protocol::check_name(account.username);
  if (!checked.ok()) {
    spdlog::warn("identities: the username of {} breaks today's name rule ({}): it cannot log in",
                 account.id, checked.problem);
    return;
  }
  if (checked.name == account.username) return;
  auto r = s.renormalize_username(account.id, checked.name,
                                  protocol::fold_case(checked.name).value_or(checked.name));
  if (r.code == store::WriteResult::Code::duplicate) {
    spdlog::warn(
        "identities: the username of {} is kept as claimed: another account has its NFKC "
        "form",
        account.id);
    return;
  }
  require(r, "username of " + account.id);
  spdlog::info("identities: the username of {} is kept in NFKC from now on", account.id);
  account.username = std::move(checked.name);
}

bool same_keys(ProtectedKeys a, ProtectedKeys b) {
  for (auto* list : {&a.username, &a.name, &b.username, &b.name})
    std::sort(list->begin(), list->end());
  return a == b;
}

// Gives `index` every account's protected keys as this server computes them, and the store too
// where it holds others: none after the migration to schema 8, different ones after an upgrade
// of ICU's data. Keys of identities not in `accounts` are left alone: in a cluster they may be
// an account claimed on another node since `accounts` was read.
void protect_accounts(store::Store& s, std::vector<Identity>& accounts, LookalikeIndex& index) {
  std::map<std::string, ProtectedKeys> stored;
  s.each_name_key([&](std::string id, std::string kind, std::string key) {
    auto& keys = stored[id];
    (kind == "username" ? keys.username : keys.name).push_back(std::move(key));
  });
  int written = 0;
  for (Identity& account : accounts) {
    renormalize(s, account);
    auto keys = protected_keys(account.username, account.name);
    auto it = stored.find(account.id);
    if (it == stored.end() || !same_keys(it->second, keys)) {
      require(s.protect_names(account.id, keys.username, keys.name), "names of " + account.id);
      ++written;
    }
    index.set(account.id, std::move(keys));
  }
  if (written > 0) spdlog::info("identities: the protected names of {} accounts stored", written);
}

// A token as it is given out: the token, the hash the tables and the store keep, and its time.
struct NewToken {
  std::string token, hash;
  std::int64_t at = 0;
};

NewToken new_token() {
  std::string token = random_hex(32);
  std::string hash = token_hash(token);
  return {std::move(token), std::move(hash), wall_ms()};
}

void store_token(store::Store& s, const std::string& id, const NewToken& t,
                 std::string_view agent) {
  require(s.add_token(id, t.hash, t.at, cut_utf8(agent, kMaxAgentBytes)), "token of " + id);
}

// The hash of the token a revocation keeps: empty when it keeps none.
std::string kept_hash(std::string_view keep) {
  return keep.empty() ? std::string() : token_hash(keep);
}

void store_revocation(store::Store& s, const std::string& id, const std::string& kept) {
  require(s.remove_tokens(id, kept), "revoking the tokens of " + id);
}

}  // namespace

StoreIdentities::StoreIdentities(std::shared_ptr<store::StoreWorker> worker, bool shared,
                                 SessionExpiry expiry)
    : worker_(std::move(worker)), shared_(shared), expiry_(expiry) {
  std::promise<void> loaded;
  auto done = loaded.get_future();
  bool posted = worker_->post([this, &loaded](store::Store& s) {
    try {
      std::vector<Identity> accounts;
      s.each_identity([&](store::Identity i) {
        if (!i.username.empty()) accounts.push_back(from_store(i));
        table_.add(from_store(std::move(i)), {});
      });
      protect_accounts(s, accounts, lookalikes_);
      for (const auto& a : accounts) table_.by_id(a.id)->username = a.username;
      const std::int64_t now = wall_ms();
      std::vector<std::string> expired;
      s.each_token([&](store::Token t) {
        const Identity* who = table_.by_id(t.identity);
        const TokenUse use{t.identity, t.last_used_at, t.last_used_at, !t.name.empty()};
        if (who && expiry_.expired(use, *who, now)) return expired.push_back(std::move(t.hash));
        table_.add_token(t.identity, t.hash, t.last_used_at, !t.name.empty());
      });
      for (const auto& hash : expired) require(s.remove_token(hash), "an expired token");
      if (!expired.empty())
        spdlog::info("identities: {} sessions unused for {} s ended", expired.size(),
                     expiry_.after_ms / 1000);
      for (auto& [id, st] : s.standings())
        standing_[id] = Standing{st.banned, st.shadow_until, std::move(st.mutes)};
      loaded.set_value();
    } catch (...) {
      loaded.set_exception(std::current_exception());
    }
  });
  if (!posted) throw store::StoreError("identities: the store is stopped");
  done.get();
}

NewIdentity StoreIdentities::create_guest(std::string_view name, std::string_view agent) {
  NewIdentity out;
  out.token = random_hex(32);
  std::string hash = token_hash(out.token);
  {
    std::lock_guard lock(mutex_);
    do out.identity.id = std::string("p").append(random_hex(6));
    while (table_.contains(out.identity.id));
    out.identity.name =
        name.empty() ? std::string("Guest ").append(out.identity.id, 1, 4) : std::string(name);
    table_.add(out.identity, hash, wall_ms());
  }
  if (!shared_) {
    worker_->post([i = out.identity, hash, at = wall_ms(),
                   agent = cut_utf8(agent, kMaxAgentBytes)](store::Store& s) {
      require(s.create_identity(i.id, i.name, hash, at, agent), "identity " + i.id);
    });
    return out;
  }
  // Every node asks the store for a token: it is given only once the store holds it.
  auto answer = std::make_shared<std::promise<bool>>();
  auto stored = answer->get_future();
  const bool posted = worker_->post([answer, i = out.identity, hash, at = wall_ms(),
                                     agent = cut_utf8(agent, kMaxAgentBytes)](store::Store& s) {
    if (!s.create_identity(i.id, i.name, hash, at, agent).ok()) return answer->set_value(false);
    s.after_commit([answer](bool committed) { answer->set_value(committed); });
  });
  bool ok = false;
  try {
    ok = posted && stored.get();
  } catch (const std::future_error&) {  // the job failed before it answered
  }
  if (!ok) {
    std::lock_guard lock(mutex_);
    table_.remove_token(hash);
    spdlog::warn("identities: a new guest cannot be stored now; refused");
    throw IdentitiesUnavailable("the store cannot take a new identity now");
  }
  return out;
}

bool StoreIdentities::use_token(const std::string& hash, TokenUse& use, const Identity& who) {
  const std::int64_t now = wall_ms();
  if (expiry_.expired(use, who, now)) {
    spdlog::info("identities: a session of {} ended, unused for {} s", who.id,
                 (now - use.last_used) / 1000);
    forget_token(hash);
    return true;
  }
  use.last_used = std::max(use.last_used, now);
  if (use.last_used - use.stored >= expiry_.touch_every_ms()) {
    use.stored = use.last_used;
    worker_->post([hash, at = use.last_used](store::Store& s) {
      require(s.touch_token(hash, at), "a token's use");
    });
  }
  return false;
}

void StoreIdentities::forget_token(const std::string& hash) {
  table_.remove_token(hash);
  worker_->post([hash](store::Store& s) {
    auto r = s.remove_token(hash);
    if (r.code != store::WriteResult::Code::not_found) require(r, "revoking a token");
  });
}

std::optional<Identity> StoreIdentities::find(std::string_view token) {
  std::string hash = token_hash(token);
  if (!shared_) {
    std::lock_guard lock(mutex_);
    TokenUse* use = table_.token(hash);
    if (!use) return std::nullopt;
    Identity who = *table_.by_id(use->id);
    if (use_token(hash, *use, who)) return std::nullopt;
    return who;
  }
  // Another node may have revoked it, or issued it, or used it since: the store says.
  using Row = std::optional<std::pair<store::Identity, store::Token>>;
  Row row;
  auto answer = std::make_shared<std::promise<Row>>();
  auto got = answer->get_future();
  bool posted = worker_->post([answer, hash](store::Store& s) {
    try {
      auto token = s.token(hash);
      auto who = token ? s.identity_by_token_hash(hash) : std::nullopt;
      answer->set_value(who ? Row(std::pair(std::move(*who), std::move(*token))) : Row());
    } catch (...) {
      answer->set_exception(std::current_exception());
    }
  });
  try {
    if (!posted) throw store::StoreError("the store is stopped");
    row = got.get();
  } catch (const std::exception& e) {
    spdlog::warn("identities: a token cannot be looked up in the store now: {}", e.what());
    throw IdentitiesUnavailable(e.what());
  }
  std::lock_guard lock(mutex_);
  if (!row) {
    table_.remove_token(hash);
    return std::nullopt;
  }
  Identity who = from_store(std::move(row->first));
  TokenUse use{who.id, row->second.last_used_at, row->second.last_used_at,
               !row->second.name.empty()};
  if (const TokenUse* known = table_.token(hash)) {  // this node's later use, not stored yet
    use.last_used = std::max(use.last_used, known->last_used);
    use.stored = std::max(use.stored, known->stored);
  }
  table_.add(who, {});
  table_.add_token(who.id, hash);
  TokenUse& kept = *table_.token(hash);
  kept = use;
  if (use_token(hash, kept, who)) return std::nullopt;
  return who;
}

void StoreIdentities::rename(const std::string& id, std::string_view name) {
  // The store keeps the keys only for an account holder, which it knows better than memory.
  auto keys = protocol::lookalike_keys(name);
  {
    std::lock_guard lock(mutex_);
    Identity* i = table_.by_id(id);
    if (!i) return;
    i->name = name;
    if (!i->username.empty()) lookalikes_.set(id, protected_keys(i->username, i->name));
  }
  worker_->post([id, n = std::string(name), keys = std::move(keys)](store::Store& s) {
    require(s.set_name(id, n, keys), "identity " + id + " name");
  });
}

std::optional<std::string> StoreIdentities::lookalike_holder(std::string_view name,
                                                             const std::string& except) const {
  auto keys = protocol::lookalike_keys(name);
  if (shared_)  // another node may have made the account, or renamed its holder
    return ask_store(*worker_, "a name",
                     [keys, except](store::Store& s) { return s.lookalike_holder(keys, except); });
  std::lock_guard lock(mutex_);
  auto holder = lookalikes_.holder(keys, except);
  return holder.empty() ? std::nullopt : std::optional(std::move(holder));
}

std::optional<Identity> StoreIdentities::by_id(const std::string& id) const {
  {
    std::lock_guard lock(mutex_);
    if (const Identity* i = table_.by_id(id)) return *i;
  }
  if (!shared_) return std::nullopt;
  auto found =
      ask_store(*worker_, "identity " + id, [id](store::Store& s) { return s.identity_by_id(id); });
  if (!found) return std::nullopt;
  std::lock_guard lock(mutex_);
  if (const Identity* i = table_.by_id(id)) return *i;  // a lookup kept it meanwhile
  Identity i = from_store(std::move(*found));
  table_.add(i, {});
  return i;
}

std::string StoreIdentities::issue_token(const std::string& id, std::string_view agent) {
  NewToken t = new_token();
  {
    std::lock_guard lock(mutex_);
    table_.add_token(id, t.hash, t.at);
  }
  worker_->post(
      [id, t, agent = std::string(agent)](store::Store& s) { store_token(s, id, t, agent); });
  return std::move(t.token);
}

std::string StoreIdentities::issue_token_in(store::Store& s, const std::string& id,
                                            std::string_view agent) {
  NewToken t = new_token();
  store_token(s, id, t, agent);
  std::lock_guard lock(mutex_);
  table_.add_token(id, t.hash, t.at);
  return std::move(t.token);
}

std::string StoreIdentities::issue_access_token_in(store::Store& s, const std::string& id,
                                                   std::string_view name) {
  std::string token = new_access_token();
  std::string hash = token_hash(token);
  const std::int64_t at = wall_ms();
  if (!store::BotRows::add_access_token(s, id, hash, name, at).ok()) return {};
  std::lock_guard lock(mutex_);
  table_.add_token(id, hash, 0, true);
  return token;
}

void StoreIdentities::note_bot_flags(const std::string& id, bool bot, bool play_bots) {
  std::lock_guard lock(mutex_);
  table_.set_bot_flags(id, bot, play_bots);
}

void StoreIdentities::revoke_tokens_in(store::Store& s, const std::string& id,
                                       std::string_view keep) {
  std::string kept = kept_hash(keep);
  {
    std::lock_guard lock(mutex_);
    table_.remove_tokens(id, kept);
  }
  store_revocation(s, id, kept);
}

bool StoreIdentities::end_session(const std::string& id, const std::string& hash) {
  std::lock_guard lock(mutex_);
  const TokenUse* use = table_.token(hash);
  if (use && use->id != id) return false;
  // Not known here (another node's login, in a cluster): the caller found it in the store.
  forget_token(hash);
  return true;
}

void StoreIdentities::revoke_token(std::string_view token) {
  std::string hash = token_hash(token);
  {
    std::lock_guard lock(mutex_);
    table_.remove_token(hash);
  }
  worker_->post([hash](store::Store& s) {
    auto r = s.remove_token(hash);
    if (r.code != store::WriteResult::Code::not_found) require(r, "revoking a token");
  });
}

void StoreIdentities::revoke_tokens(const std::string& id, std::string_view keep) {
  std::string kept = kept_hash(keep);
  {
    std::lock_guard lock(mutex_);
    table_.remove_tokens(id, kept);
  }
  worker_->post([id, kept](store::Store& s) { store_revocation(s, id, kept); });
}

void StoreIdentities::set_username(const std::string& id, std::string username) {
  ProtectedKeys keys;
  {
    std::lock_guard lock(mutex_);
    Identity* i = table_.by_id(id);
    if (!i) return;
    i->username = std::move(username);
    keys = protected_keys(i->username, i->name);
    lookalikes_.set(id, keys);
  }
  worker_->post([id, keys = std::move(keys)](store::Store& s) {
    require(s.protect_names(id, keys.username, keys.name), "names of " + id);
  });
}

void StoreIdentities::erase(const std::string& id) {
  std::lock_guard lock(mutex_);
  lookalikes_.erase(id);  // the store's keys went with the account (delete_identity)
  table_.remove_tokens(id, {}, true);
  if (Identity* i = table_.by_id(id)) *i = Identity{id, std::string(store::kDeletedPlayer), {}};
  standing_.erase(id);
}

// The worker runs its jobs in order: this one's commit covers every write queued before it.
void StoreIdentities::after_stored(std::function<void(bool)> done) {
  auto shared = std::make_shared<std::function<void(bool)>>(std::move(done));
  if (!worker_->post([shared](store::Store& s) { s.after_commit(*shared); })) (*shared)(false);
}

std::size_t StoreIdentities::size() const {
  std::lock_guard lock(mutex_);
  return table_.size();
}

}  // namespace tanbo_server::server
