// Forwarded standings and their tickets: what waits on a mute until the room's node has it.
#include <mutex>
#include <utility>

#include "server/cluster/relay.hpp"

namespace tanbo_server::server::cluster {

void Relay::forward_standing(const std::string& room, const std::shared_ptr<WsPeer>& peer,
                             const Identity& who, const Standing& standing, std::string_view text,
                             std::function<void()> followed) {
  std::uint64_t ticket;
  {
    std::lock_guard lock(mutex_);
    ticket = next_ticket_++;
    awaited_.emplace(ticket, Awaited{std::move(followed), {}});
  }
  push(request(Target::room, room, peer, who, standing, text, ticket));
}

void Relay::settle(std::uint64_t ticket) {
  std::function<void()> followed;
  {
    std::lock_guard lock(mutex_);
    auto it = awaited_.find(ticket);
    if (it == awaited_.end()) return;
    followed = std::move(it->second.followed);
    awaited_.erase(it);
  }
  followed();
}

void Relay::settle_sent_to(const std::string& node) {
  std::vector<std::function<void()>> followed;
  {
    std::lock_guard lock(mutex_);
    std::erase_if(awaited_, [&](auto& a) {
      if (!node.empty() && a.second.node != node) return false;
      followed.push_back(std::move(a.second.followed));
      return true;
    });
  }
  for (auto& f : followed) f();
}

}  // namespace tanbo_server::server::cluster
