#pragma once
// Who a connection speaks for. A guest identity is made on the first hello; its token (256 random
// bits, hex) is shown once and only its SHA-256 is kept, so a leaked table cannot be replayed.
// An identity with an account gets one more token per login (server/accounts/accounts.hpp): a
// session, which its owner may list and end, and which ends by itself once unused for the
// session expiry (a guest's only token never expires: it would lose its identity).
// MemoryIdentities serves the tests that run without a store; StoreIdentities the server.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "server/identity/lookalikes.hpp"

namespace tanbo_server::server::store {
class Store;
}

namespace tanbo_server::server {

struct Identity {
  std::string id;             // public and stable, e.g. "p3f9a0c21"
  std::string name;           // display name
  std::string username = {};  // its account's (login name); empty for a guest
  bool bot = false;           // the account is a bot (docs/bots-write.md)
  bool play_bots = false;     // a person who plays bots in direct challenges
  friend bool operator==(const Identity&, const Identity&) = default;
};

// What moderation says of an identity, and whom it muted (docs/operations.md, "Moderation").
struct Standing {
  bool banned = false;
  std::int64_t shadow_until = 0;   // ms since the epoch; 0: not shadow-muted
  std::vector<std::string> mutes;  // sorted
  bool shadowed(std::int64_t now_ms) const { return shadow_until > now_ms; }
  friend bool operator==(const Standing&, const Standing&) = default;
};

struct NewIdentity {
  Identity identity;
  std::string token;  // the secret; never stored
};

// What begins every personal access token (docs/bots-write.md), so that a token says its kind:
// an access token never stands for a session (it cannot manage tokens), and a session's never
// for an access token.
inline constexpr std::string_view kAccessTokenPrefix = "tbp_";
inline bool is_access_token(std::string_view token) {
  return token.starts_with(kAccessTokenPrefix);
}

// The longest client description kept with a token (its User-Agent, cut there).
inline constexpr std::size_t kMaxAgentBytes = 200;

// The store that keeps identities cannot answer now (a cluster's database is out): whether a
// token is known cannot be told ("unknown" would be a lie that makes its holder a stranger), and
// a new guest's token cannot be made durable (one given anyway would be unknown to every node).
struct IdentitiesUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Identities {
 public:
  virtual ~Identities() = default;
  // A new guest; `name` already validated (empty: a generated one). `agent`: the client it
  // connects with, kept with its token (cut to kMaxAgentBytes). In a shared store it returns
  // once stored, and throws IdentitiesUnavailable when it cannot be.
  virtual NewIdentity create_guest(std::string_view name, std::string_view agent) = 0;
  // The identity a token brings back, which counts as a use of the token; nullopt for a token
  // never issued, revoked, or expired. Throws IdentitiesUnavailable when the store cannot say.
  virtual std::optional<Identity> find(std::string_view token) = 0;
  virtual void rename(const std::string& id, std::string_view name) = 0;
  // The identity with this public id; nullopt for none.
  virtual std::optional<Identity> by_id(const std::string& id) const = 0;

  // Tokens and accounts (server/accounts). The store's rows of an account are the Accounts'
  // to write; the tokens are written here, through the same queue as everything else.
  // A login's: the secret. `agent`: the client that logged in (cut to kMaxAgentBytes).
  virtual std::string issue_token(const std::string& id, std::string_view agent) = 0;
  virtual void revoke_token(std::string_view token) = 0;
  // The token of `id` whose hash is `hash`: false when `id` holds none such.
  virtual bool end_session(const std::string& id, const std::string& hash) = 0;
  // Every token of `id` but `keep` (empty: every one).
  virtual void revoke_tokens(const std::string& id, std::string_view keep) = 0;
  // The same from a job on the store's queue, written by that job (`s`): stored when the job's
  // own writes are, so that an answer held until they commit (after_commit) never comes before
  // another node can read them.
  virtual std::string issue_token_in(store::Store& s, const std::string& id,
                                     std::string_view agent);
  virtual void revoke_tokens_in(store::Store& s, const std::string& id, std::string_view keep);
  // A personal access token of `id` named `name` (docs/bots-write.md), from a job on the
  // store's queue, written by that job: the secret, or empty when the store refused it.
  virtual std::string issue_access_token_in(store::Store& s, const std::string& id,
                                            std::string_view name) = 0;
  // The bot flags of `id` as a job on the store's queue wrote them.
  virtual void note_bot_flags(const std::string& id, bool bot, bool play_bots) = 0;
  virtual void set_username(const std::string& id, std::string username) = 0;
  // An erased identity: no token brings it back, and its name is "deleted player".
  virtual void erase(const std::string& id) = 0;

  // An identity other than `except` whose account's username, or whose display name while it
  // holds an account, looks like `name` (lookalikes.hpp); nullopt for none. In a cluster the
  // store is asked (another node may have made the account), and the caller waits for it.
  virtual std::optional<std::string> lookalike_holder(std::string_view name,
                                                      const std::string& except) const = 0;

  // Moderation and mutes: kept with the identity (in the store, when there is one).
  virtual Standing standing(const std::string& id) const = 0;
  virtual void set_mute(const std::string& id, const std::string& muted, bool on) = 0;
  virtual void report(const std::string& reporter, const std::string& player,
                      const std::string& room, const std::string& reason) = 0;
  virtual void set_shadow_mute(const std::string& id, std::int64_t until) = 0;  // 0: lifted
  virtual void set_ban(const std::string& id, bool banned) = 0;
  // Called once every change made above is durable (false: the store failed or is stopping),
  // so that a request is answered only for what a crash cannot take back.
  virtual void after_stored(std::function<void(bool stored)> done) = 0;
};

// When a token was last used, as far as this server knows, and when that was last stored: a use
// is written to the store only once the stored one is `touch_every` old, so that a hello costs no
// write while its token's last use stays known to that precision.
struct TokenUse {
  std::string id;
  std::int64_t last_used = 0;  // ms since the Unix epoch
  std::int64_t stored = 0;     // the last use the store holds
  bool access = false;         // a personal access token: no session expiry, no logout ends it
};

// How long an account's unused token lasts (0: forever), and the precision of its last use.
struct SessionExpiry {
  std::int64_t after_ms = 0;
  std::int64_t touch_every_ms() const;  // an hour, or a tenth of the expiry when shorter
  bool expired(const TokenUse& use, const Identity& who, std::int64_t now) const {
    return after_ms > 0 && !who.username.empty() && !use.access && now - use.last_used > after_ms;
  }
};

// The identities and tokens a server holds in memory; not thread-safe (its owner locks).
class IdentityTable {
 public:
  void add(Identity identity, const std::string& token_hash,
           std::int64_t at = 0);  // hash empty: no token
  std::optional<Identity> by_token_hash(const std::string& hash) const;
  TokenUse* token(const std::string& hash);
  const Identity* by_id(const std::string& id) const;
  Identity* by_id(const std::string& id);
  void add_token(const std::string& id, const std::string& hash, std::int64_t last_used = 0,
                 bool access = false);
  void remove_token(const std::string& hash);
  // The sessions' tokens of `id` but `keep_hash`; its access tokens too when `access_too`.
  void remove_tokens(const std::string& id, const std::string& keep_hash, bool access_too = false);
  // The account's bot mark and its consent to play bots, as the store has them.
  void set_bot_flags(const std::string& id, bool bot, bool play_bots);
  bool contains(const std::string& id) const { return identities_.contains(id); }
  std::size_t size() const { return identities_.size(); }

 private:
  std::unordered_map<std::string, Identity> identities_;  // by id
  std::unordered_map<std::string, TokenUse> tokens_;      // by SHA-256(token) hex
};

class MemoryIdentities final : public Identities {
 public:
  NewIdentity create_guest(std::string_view name, std::string_view agent) override;
  std::optional<Identity> find(std::string_view token) override;
  void rename(const std::string& id, std::string_view name) override;
  std::optional<Identity> by_id(const std::string& id) const override;
  Standing standing(const std::string& id) const override;
  void set_mute(const std::string& id, const std::string& muted, bool on) override;
  void report(const std::string&, const std::string&, const std::string&,
              const std::string&) override {}
  void set_shadow_mute(const std::string& id, std::int64_t until) override;
  void set_ban(const std::string& id, bool banned) override;
  void after_stored(std::function<void(bool)> done) override { done(true); }
  std::string issue_token(const std::string& id, std::string_view agent) override;
  void revoke_token(std::string_view token) override;
  bool end_session(const std::string& id, const std::string& hash) override;
  void revoke_tokens(const std::string& id, std::string_view keep) override;
  void set_username(const std::string& id, std::string username) override;
  void erase(const std::string& id) override;
  std::optional<std::string> lookalike_holder(std::string_view name,
                                              const std::string& except) const override;
  std::string issue_access_token_in(store::Store& s, const std::string& id,
                                    std::string_view name) override;
  void note_bot_flags(const std::string& id, bool bot, bool play_bots) override;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Standing> standing_;
  IdentityTable table_;
  LookalikeIndex lookalikes_;
};

// SHA-256 of a token, as hex: all that is ever kept of it.
std::string token_hash(std::string_view token);
// At most `max` bytes of `text`, cut before a UTF-8 sequence rather than inside it.
std::string cut_utf8(std::string_view text, std::size_t max);

// Adds or removes `muted` in a sorted list.
void apply_mute(std::vector<std::string>& mutes, const std::string& muted, bool on);
// n bytes of OpenSSL's RAND_bytes as lower-case hex; throws std::runtime_error on failure.
std::string random_hex(std::size_t n);
// A new personal access token: kAccessTokenPrefix and 256 random bits.
std::string new_access_token();

}  // namespace tanbo_server::server
