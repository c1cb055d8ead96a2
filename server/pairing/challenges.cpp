#include "server/pairing/challenges.hpp"

namespace tanbo_server::server::pairing {

void Challenges::online(const std::string& identity, std::uint64_t peer,
                        std::weak_ptr<Client> client) {
  std::lock_guard lock(mutex_);
  online_[identity][peer] = {std::move(client), true};
}

void Challenges::offline(const std::string& identity, std::uint64_t peer) {
  std::lock_guard lock(mutex_);
  auto it = online_.find(identity);
  if (it == online_.end()) return;
  it->second.erase(peer);
  if (it->second.empty()) online_.erase(it);
}

void Challenges::set_open(const std::string& identity, std::uint64_t peer, bool open) {
  std::lock_guard lock(mutex_);
  if (auto it = online_.find(identity); it != online_.end())
    if (auto c = it->second.find(peer); c != it->second.end()) c->second.open = open;
}

Challenges::Reach Challenges::reach(const std::string& identity) const {
  std::lock_guard lock(mutex_);
  auto it = online_.find(identity);
  if (it == online_.end() || it->second.empty()) return Reach::offline;
  for (const auto& [peer, c] : it->second)
    if (c.open) return Reach::open;
  return Reach::refused;
}

std::set<std::string> Challenges::identities() const {
  std::set<std::string> out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, peers] : online_) out.insert(id);
  return out;
}

std::vector<std::shared_ptr<Client>> Challenges::open_clients(const std::string& identity) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  if (auto it = online_.find(identity); it != online_.end())
    for (const auto& [peer, c] : it->second)
      if (auto client = c.client.lock(); client && c.open) out.push_back(std::move(client));
  return out;
}

std::vector<std::shared_ptr<Client>> Challenges::clients(const std::string& identity) const {
  std::vector<std::shared_ptr<Client>> out;
  std::lock_guard lock(mutex_);
  if (auto it = online_.find(identity); it != online_.end())
    for (const auto& [peer, c] : it->second)
      if (auto client = c.client.lock()) out.push_back(std::move(client));
  return out;
}

std::string Challenges::open(OpenChallenge c) {
  std::lock_guard lock(mutex_);
  do c.id = "c-" + random_hex(8);
  while (open_.contains(c.id));
  auto id = c.id;
  open_.emplace(id, std::move(c));
  return id;
}

std::optional<OpenChallenge> Challenges::take(const std::string& id, const std::string& who,
                                              bool as_target) {
  std::lock_guard lock(mutex_);
  auto it = open_.find(id);
  if (it == open_.end() || (as_target ? it->second.to : it->second.from.id) != who)
    return std::nullopt;
  auto c = std::move(it->second);
  open_.erase(it);
  return c;
}

std::vector<OpenChallenge> Challenges::take_from(const std::string& identity,
                                                 const std::weak_ptr<Client>& challenger) {
  std::vector<OpenChallenge> out;
  std::lock_guard lock(mutex_);
  for (auto it = open_.begin(); it != open_.end();) {
    const auto& c = it->second;
    if (c.from.id == identity && !c.challenger.owner_before(challenger) &&
        !challenger.owner_before(c.challenger)) {
      out.push_back(std::move(it->second));
      it = open_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

}  // namespace tanbo_server::server::pairing
