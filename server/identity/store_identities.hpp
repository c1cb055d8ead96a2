#pragma once
// Identities kept in the store (token hashes only). Every identity is read into memory once, at
// start, on the starting thread; after that a lookup of a known identity (hello with a token, a
// recovered seat's name) is a map lookup under a mutex and never touches the disk, so the network
// threads that answer `hello` never wait on SQLite. A new guest or a new name is written through
// the StoreWorker's queue: it is committed before any room entry that names the identity, because
// rooms journal through the same queue after the welcome was sent.
//
// In a cluster another node may create an identity, log it in or out after this one started:
// there (`shared`) every token is looked up in the store (the caller waits for the StoreWorker's
// answer), and an id missing from memory too. A server alone made every identity and token
// itself, so a miss is unknown at once: a flood of bad tokens never reaches the store.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/identity/identities.hpp"

namespace tanbo_server::server {

namespace store {
class StoreWorker;
}

class StoreIdentities final : public Identities {
 public:
  // Reads every identity through `worker` and waits for it (call before the network starts).
  // Throws store::StoreError when the read fails.
  // `shared`: other servers write identities to the same store (a cluster). An account's token
  // unused for `expiry` ends (docs/operations.md, "Security"); the ones already over it go at
  // start.
  explicit StoreIdentities(std::shared_ptr<store::StoreWorker> worker, bool shared = false,
                           SessionExpiry expiry = {});

  NewIdentity create_guest(std::string_view name, std::string_view agent) override;
  std::optional<Identity> find(std::string_view token) override;
  void rename(const std::string& id, std::string_view name) override;

  // The identity `id` names (recovery gives seats their names); nullopt for an unknown id.
  std::optional<Identity> by_id(const std::string& id) const override;
  // Read at start with the identities; in a cluster read again for each hello (another node
  // may have changed it).
  Standing standing(const std::string& id) const override;
  void set_mute(const std::string& id, const std::string& muted, bool on) override;
  void report(const std::string& reporter, const std::string& player, const std::string& room,
              const std::string& reason) override;
  void set_shadow_mute(const std::string& id, std::int64_t until) override;
  void set_ban(const std::string& id, bool banned) override;
  void after_stored(std::function<void(bool)> done) override;
  std::string issue_token(const std::string& id, std::string_view agent) override;
  void revoke_token(std::string_view token) override;
  bool end_session(const std::string& id, const std::string& hash) override;
  void revoke_tokens(const std::string& id, std::string_view keep) override;
  std::string issue_token_in(store::Store& s, const std::string& id,
                             std::string_view agent) override;
  void revoke_tokens_in(store::Store& s, const std::string& id, std::string_view keep) override;
  std::string issue_access_token_in(store::Store& s, const std::string& id,
                                    std::string_view name) override;
  void note_bot_flags(const std::string& id, bool bot, bool play_bots) override;
  void set_username(const std::string& id, std::string username) override;
  void erase(const std::string& id) override;
  std::optional<std::string> lookalike_holder(std::string_view name,
                                              const std::string& except) const override;
  std::size_t size() const;

 private:
  // Under the lock: whether `use` of `who` ended by expiry (then it is revoked), else its use now
  // (stored when the stored one is old enough).
  bool use_token(const std::string& hash, TokenUse& use, const Identity& who);
  void forget_token(const std::string& hash);  // under the lock

  std::shared_ptr<store::StoreWorker> worker_;
  bool shared_;
  SessionExpiry expiry_;
  mutable std::mutex mutex_;
  // What the store holds, as far as it was read: by_id (const) adds to it as find does.
  mutable IdentityTable table_;
  mutable std::unordered_map<std::string, Standing> standing_;  // only the ones not clean
  LookalikeIndex lookalikes_;  // every account's protected names (read only when not shared_)
};

}  // namespace tanbo_server::server
