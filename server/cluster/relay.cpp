// The relay's life, and what this node's connections and rooms hand its sender.
#include "server/cluster/relay.hpp"

#include <spdlog/spdlog.h>

#include <mutex>
#include <utility>

#include "server/cluster/remote_peer.hpp"
#include "server/rooms/client.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"

namespace tanbo_server::server::cluster {

Relay::Relay(RedisAddress redis, std::string node, RedisTimeouts timeouts,
             std::shared_ptr<RoomService> rooms, std::shared_ptr<Lobby> lobby)
    : redis_(std::move(redis)),
      node_(std::move(node)),
      timeouts_(timeouts),
      rooms_(std::move(rooms)),
      lobby_(std::move(lobby)),
      turns_(std::make_unique<RemoteTurns>()) {}

Relay::~Relay() { stop(); }

void Relay::start() {
  if (started_) return;
  started_ = true;
  sender_ = std::thread([this] { send_loop(); });
  receiver_ = std::thread([this] { receive_loop(); });
}

void Relay::stop_receiving() {
  {
    std::lock_guard lock(mutex_);
    receiving_ = false;
  }
  if (receiver_.joinable()) receiver_.join();
  turns_->drain();
}

void Relay::stop() {
  if (stopped_) return;
  stopped_ = true;
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (receiver_.joinable()) receiver_.join();
  if (sender_.joinable()) sender_.join();
  // The remote connections' Clients hold the rooms' services, which hold this relay.
  for (auto& [key, remote] : remotes_) turns_->post([c = remote.client] { c->on_close(); });
  remotes_.clear();
  turns_->finish();
}

void Relay::post_remote(std::function<void()> fn) { turns_->post(std::move(fn)); }

void Relay::push(Outgoing o) {
  {
    std::lock_guard lock(mutex_);
    if (sender_done_) return;
    queue_.push_back(std::move(o));
  }
  wake_.notify_one();
}

// --- This node's connections ---

void Relay::forward(Target target, const std::string& name, const std::shared_ptr<WsPeer>& peer,
                    const Identity& who, const Standing& standing, std::string_view text,
                    const protocol::Id& re) {
  Outgoing o = request(target, name, peer, who, standing, text, 0);
  o.re = re;
  push(std::move(o));
}

Relay::Outgoing Relay::request(Target target, const std::string& name,
                               const std::shared_ptr<WsPeer>& peer, const Identity& who,
                               const Standing& standing, std::string_view text,
                               std::uint64_t ticket) {
  Request m{.from = node_,
            .peer = peer->id(),
            .id = who.id,
            .name = who.name,
            .username = who.username,
            .mutes = standing.mutes,
            .shadow_until = standing.shadow_until,
            .ticket = ticket ? std::optional(ticket) : std::nullopt,
            .protocol = peer->protocol(),
            .bot = who.bot,
            .play_bots = who.play_bots};
  Outgoing o(Outgoing::request, target == Target::room ? lobby_->node_of(name) : std::string(),
             peer->id(), std::move(m));
  o.text = std::make_shared<const std::string>(text);
  o.target = target;
  o.name = name;
  o.local = peer;
  o.ticket = ticket;
  o.since = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    locals_[peer->id()].peer = peer;
  }
  return o;
}

void Relay::closed(std::uint64_t peer_id) {
  std::set<std::string> nodes;
  {
    std::lock_guard lock(mutex_);
    auto it = locals_.find(peer_id);
    if (it == locals_.end()) return;
    nodes = std::move(it->second.nodes);
    locals_.erase(it);
  }
  for (const auto& n : nodes) push(Outgoing(Outgoing::direct, n, peer_id, Bye{node_, peer_id}));
}

void Relay::node_gone(const std::string& node) {
  {
    std::lock_guard lock(mutex_);
    gone_.push_back(node);
  }
  settle_sent_to(node);
  close_locals([&](const Local& l) { return l.nodes.contains(node); });
}

// Their rooms' node is gone (or unreachable): the clients reconnect, to any node, and resume.
void Relay::close_locals(const std::function<bool(const Local&)>& which) {
  std::vector<std::shared_ptr<WsPeer>> closing;
  {
    std::lock_guard lock(mutex_);
    for (auto it = locals_.begin(); it != locals_.end();) {
      if (!which(it->second)) {
        ++it;
        continue;
      }
      if (auto p = it->second.peer.lock()) closing.push_back(std::move(p));
      it = locals_.erase(it);
    }
  }
  for (auto& p : closing) p->close(CloseCode::going_away);
}

// --- What the rooms here send to other nodes' connections ---

void Relay::send_to(const std::string& node, std::uint64_t peer,
                    std::shared_ptr<const std::string> text,
                    std::shared_ptr<const std::string> then) {
  Outgoing o(Outgoing::frame, node, peer);
  o.text = std::move(text);
  o.then = std::move(then);
  push(std::move(o));
}

void Relay::close_on(const std::string& node, std::uint64_t peer, CloseCode code) {
  push(Outgoing(Outgoing::direct, node, peer, Close{peer, code}));
}

void Relay::credit_on(const std::string& node, std::uint64_t peer, bool chat) {
  push(Outgoing(Outgoing::direct, node, peer,
                chat ? Message(ChatCredit{peer}) : Message(Credit{peer})));
}

void Relay::notify(Target target, const std::string& name, Message message,
                   std::shared_ptr<const std::string> body) {
  Outgoing o(Outgoing::notice, target == Target::room ? lobby_->node_of(name) : std::string(), 0,
             std::move(message));
  o.target = target;
  o.name = name;
  o.text = std::move(body);
  push(std::move(o));
}

void Relay::notify_all(Message message) {
  push(Outgoing(Outgoing::notice, std::string(kEveryNode), 0, std::move(message)));
}

}  // namespace tanbo_server::server::cluster
