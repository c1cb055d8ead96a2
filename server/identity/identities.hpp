#pragma once
// Who a connection speaks for. A guest identity is made on the first hello; its token (256 random
// bits, hex) is shown once and only its SHA-256 is kept, so a leaked table cannot be replayed.
// In memory for now; a persistent store implements the same interface.
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tanbo::server {

struct Identity {
  std::string id;    // public and stable, e.g. "p3f9a0c21"
  std::string name;  // display name
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

class Identities {
 public:
  virtual ~Identities() = default;
  // A new guest; `name` already validated (empty: a generated one).
  virtual NewIdentity create_guest(std::string_view name) = 0;
  // The identity a token brings back; nullopt for a token never issued.
  virtual std::optional<Identity> find(std::string_view token) = 0;
  virtual void rename(const std::string& id, std::string_view name) = 0;
  // The identity with this public id; nullopt for none.
  virtual std::optional<Identity> by_id(const std::string& id) const = 0;

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

class MemoryIdentities final : public Identities {
 public:
  NewIdentity create_guest(std::string_view name) override;
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

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Standing> standing_;
  std::unordered_map<std::string, Identity> by_hash_;     // SHA-256(token) hex -> identity
  std::unordered_map<std::string, std::string> hash_of_;  // id -> its token hash
};

// Adds or removes `muted` in a sorted list.
void apply_mute(std::vector<std::string>& mutes, const std::string& muted, bool on);
// n bytes of OpenSSL's RAND_bytes as lower-case hex; throws std::runtime_error on failure.
std::string random_hex(std::size_t n);

}  // namespace tanbo::server
