#pragma once
// Identities kept in the store (token hashes only). Every identity is read into memory once, at
// start, on the starting thread; after that a lookup (hello with a token, a recovered seat's
// name) is a map lookup under a mutex and never touches the disk, so the network threads that
// answer `hello` never wait on SQLite. A new guest or a new name is written through the
// StoreWorker's queue: it is committed before any room entry that names the identity, because
// rooms journal through the same queue after the welcome was sent.
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "server/identity/identities.hpp"

namespace tanbo::server {

namespace store {
class StoreWorker;
}

class StoreIdentities final : public Identities {
 public:
  // Reads every identity through `worker` and waits for it (call before the network starts).
  // Throws store::StoreError when the read fails.
  explicit StoreIdentities(std::shared_ptr<store::StoreWorker> worker);

  NewIdentity create_guest(std::string_view name) override;
  std::optional<Identity> find(std::string_view token) override;
  void rename(const std::string& id, std::string_view name) override;

  // The identity `id` names (recovery gives seats their names); nullopt for an unknown id.
  std::optional<Identity> by_id(const std::string& id) const;
  std::size_t size() const;

 private:
  std::shared_ptr<store::StoreWorker> worker_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Identity> by_hash_;     // SHA-256(token) hex -> identity
  std::unordered_map<std::string, std::string> hash_of_;  // id -> its token hash
};

}  // namespace tanbo::server
