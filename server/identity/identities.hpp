#pragma once
// Who a connection speaks for. A guest identity is made on the first hello; its token (256 random
// bits, hex) is shown once and only its SHA-256 is kept, so a leaked table cannot be replayed.
// In memory for now; a persistent store implements the same interface.
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tanbo::server {

struct Identity {
  std::string id;    // public and stable, e.g. "p3f9a0c21"
  std::string name;  // display name
  friend bool operator==(const Identity&, const Identity&) = default;
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
};

class MemoryIdentities final : public Identities {
 public:
  NewIdentity create_guest(std::string_view name) override;
  std::optional<Identity> find(std::string_view token) override;
  void rename(const std::string& id, std::string_view name) override;
  std::optional<Identity> by_id(const std::string& id) const override;

 private:
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Identity> by_hash_;     // SHA-256(token) hex -> identity
  std::unordered_map<std::string, std::string> hash_of_;  // id -> its token hash
};

// n bytes of OpenSSL's RAND_bytes as lower-case hex; throws std::runtime_error on failure.
std::string random_hex(std::size_t n);

}  // namespace tanbo::server
