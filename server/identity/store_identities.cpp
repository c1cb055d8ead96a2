#include "server/identity/store_identities.hpp"

#include <spdlog/spdlog.h>

#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <utility>

#include "engine/core/sha256.hpp"
#include "server/store/worker.hpp"

namespace tanbo::server {

namespace {

std::string token_hash(std::string_view token) { return engine::to_hex(engine::sha256(token)); }

// A refused or failed write is thrown on the worker: it logs it and /healthz turns degraded.
void require(const store::WriteResult& r, std::string_view what) {
  if (!r.ok())
    throw store::StoreError(std::string(what) + " (" + std::string(store::to_string(r.code)) +
                            "): " + r.message);
}

using Found = std::optional<std::pair<store::Identity, std::string>>;  // with its token hash

// Runs lookup(store) on the store's thread and waits for its answer; a store that fails, or is
// stopped, is a miss.
Found ask_store(store::StoreWorker& worker, const std::string& what,
                std::function<Found(store::Store&)> lookup) {
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

}  // namespace

StoreIdentities::StoreIdentities(std::shared_ptr<store::StoreWorker> worker, bool shared)
    : worker_(std::move(worker)), shared_(shared) {
  std::promise<void> loaded;
  auto done = loaded.get_future();
  bool posted = worker_->post([this, &loaded](store::Store& s) {
    try {
      s.each_identity([this](store::Identity i, std::string hash) {
        hash_of_[i.id] = hash;
        by_hash_[std::move(hash)] = Identity{std::move(i.id), std::move(i.name)};
      });
      loaded.set_value();
    } catch (...) {
      loaded.set_exception(std::current_exception());
    }
  });
  if (!posted) throw store::StoreError("identities: the store is stopped");
  done.get();
}

NewIdentity StoreIdentities::create_guest(std::string_view name) {
  NewIdentity out;
  out.token = random_hex(32);
  std::string hash = token_hash(out.token);
  {
    std::lock_guard lock(mutex_);
    do out.identity.id = std::string("p").append(random_hex(6));
    while (hash_of_.contains(out.identity.id));
    out.identity.name =
        name.empty() ? std::string("Guest ").append(out.identity.id, 1, 4) : std::string(name);
    by_hash_[hash] = out.identity;
    hash_of_[out.identity.id] = hash;
  }
  worker_->post([i = out.identity, hash](store::Store& s) {
    require(s.create_identity(i.id, i.name, hash), "identity " + i.id);
  });
  return out;
}

std::optional<Identity> StoreIdentities::find(std::string_view token) {
  std::string hash = token_hash(token);
  {
    std::lock_guard lock(mutex_);
    auto it = by_hash_.find(hash);
    if (it != by_hash_.end()) return it->second;
  }
  if (!shared_) return std::nullopt;
  auto found = ask_store(*worker_, "a token", [hash](store::Store& s) -> Found {
    auto i = s.identity_by_token_hash(hash);
    if (!i) return std::nullopt;
    return std::pair(std::move(*i), hash);
  });
  if (!found) return std::nullopt;
  auto& [i, h] = *found;
  return remember(Identity{std::move(i.id), std::move(i.name)}, std::move(h));
}

void StoreIdentities::rename(const std::string& id, std::string_view name) {
  {
    std::lock_guard lock(mutex_);
    auto h = hash_of_.find(id);
    if (h == hash_of_.end()) return;
    by_hash_[h->second].name = name;
  }
  worker_->post([id, n = std::string(name)](store::Store& s) {
    require(s.set_name(id, n), "identity " + id + " name");
  });
}

std::optional<Identity> StoreIdentities::by_id(const std::string& id) const {
  {
    std::lock_guard lock(mutex_);
    auto h = hash_of_.find(id);
    if (h != hash_of_.end()) return by_hash_.at(h->second);
  }
  if (!shared_) return std::nullopt;
  auto found =
      ask_store(*worker_, "identity " + id, [id](store::Store& s) { return s.identity_by_id(id); });
  if (!found) return std::nullopt;
  auto& [i, h] = *found;
  return remember(Identity{std::move(i.id), std::move(i.name)}, std::move(h));
}

Identity StoreIdentities::remember(Identity identity, std::string hash) const {
  std::lock_guard lock(mutex_);
  if (auto h = hash_of_.find(identity.id); h != hash_of_.end()) return by_hash_.at(h->second);
  if (auto it = by_hash_.find(hash); it != by_hash_.end()) return it->second;
  hash_of_[identity.id] = hash;
  return by_hash_[std::move(hash)] = std::move(identity);
}

std::size_t StoreIdentities::size() const {
  std::lock_guard lock(mutex_);
  return hash_of_.size();
}

}  // namespace tanbo::server
