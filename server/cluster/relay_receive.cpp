// The receiver thread: what other nodes send here, handed to the rooms (a request, through the
// Client of a RemotePeer) or to this node's connections (a frame, a close).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>
#include <thread>
#include <utility>

#include "server/cluster/keys.hpp"
#include "server/cluster/relay.hpp"
#include "server/cluster/remote_peer.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/client.hpp"
#include "server/rooms/service.hpp"

namespace tanbo_server::server::cluster {

void Relay::receive_loop() {
  using std::chrono::milliseconds;
  RedisConnection redis(redis_, timeouts_);
  bool subscribed = false;
  for (;;) {
    std::vector<std::string> gone;
    {
      std::lock_guard lock(mutex_);
      if (stopping_ || !receiving_) return;
      gone.swap(gone_);
    }
    for (const auto& n : gone) drop_remotes_of(n);
    if (!subscribed) {
      subscribed = !redis.command({"SUBSCRIBE", keys::node_channel(node_)}).is_error();
      if (!subscribed) {
        std::this_thread::sleep_for(milliseconds(100));
        continue;
      }
    }
    auto push = redis.next_push(milliseconds(200));
    if (!redis.connected()) {
      // Whatever the other nodes sent meanwhile is lost: every connection on either side of
      // this node's channel starts again, as after a node's death.
      subscribed = false;
      spdlog::warn("cluster: node channel lost ({}); closing the connections it served",
                   redis.last_error());
      close_locals([](const Local&) { return true; });
      settle_sent_to({});
      std::vector<std::string> nodes;
      for (const auto& [key, remote] : remotes_) nodes.push_back(key.first);
      for (const auto& n : nodes) drop_remotes_of(n);
      continue;
    }
    if (!push) continue;
    const auto* a = push->array();
    if (!a || a->size() != 3 || (*a)[0].text() != "message") continue;
    if (auto payload = (*a)[2].text()) on_message(*payload);
  }
}

void Relay::on_message(std::string_view payload) {
  auto parts = split_payload(payload);
  if (!parts) {
    spdlog::warn("cluster: a message without a head on the node channel");
    return;
  }
  // Numbered whatever its kind, so a message refused below leaves no gap behind it.
  switch (arrivals_.check(parts->head)) {
    case LinkArrivals::Verdict::in_order:
      break;
    case LinkArrivals::Verdict::after_gap:
      reset_link(parts->head.at("from").get<std::string>(), true);
      break;
    case LinkArrivals::Verdict::stale:
      return;
  }
  auto decoded = decode(parts->head);
  if (!decoded.message) {
    spdlog::warn("cluster: a message refused on the node channel: {}", decoded.refusal);
    return;
  }
  std::visit([&](const auto& m) { on(m, parts->body); }, *decoded.message);
}

Relay::Remote& Relay::remote_for(const Request& m) {
  RemoteKey key{m.from, m.peer};
  auto it = remotes_.find(key);
  if (it != remotes_.end()) return it->second;
  auto peer = std::make_shared<RemotePeer>(weak_from_this(), m.from, m.peer, next_remote_id_++);
  auto credit = [weak = weak_from_this(), node = m.from, p = m.peer](bool chat) {
    if (auto r = weak.lock()) r->credit_on(node, p, chat);
  };
  auto client = rooms_->remote_client(
      peer->id(), Identity{m.id, m.name, m.username, m.bot, m.play_bots},
      [credit] { credit(false); }, [credit] { credit(true); });
  client->attach(peer);
  return remotes_.emplace(key, Remote{std::move(peer), std::move(client)}).first->second;
}

// Handed to the Client on the remote connections' turns: the receiver reads on meanwhile.
void Relay::on(const Request& m, std::string_view body) {
  Remote& remote = remote_for(m);
  remote.peer->speak(m.protocol);  // the frames the rooms here send it are in its names
  turns_->post([this, m, text = std::string(body), peer = remote.peer, client = remote.client] {
    client->use_standing({false, m.shadow_until, m.mutes});
    client->on_text(peer, text);
    // A standing's change is now in the rooms' queues, ahead of anything said after this.
    if (m.ticket) push(Outgoing(Outgoing::direct, m.from, m.peer, Followed{*m.ticket}));
  });
  metrics::cluster(metrics::Cluster::served);
}

void Relay::on(const Frame& m, std::string_view body) {
  std::vector<std::shared_ptr<WsPeer>> to;
  {
    std::lock_guard lock(mutex_);
    for (const auto p : m.peers)
      if (auto it = locals_.find(p); it != locals_.end())
        if (auto peer = it->second.peer.lock()) to.push_back(std::move(peer));
  }
  metrics::cluster(metrics::Cluster::delivered, to.size());
  if (m.split) {  // an answer and its state
    const auto at = std::min(*m.split, body.size());
    auto first = std::make_shared<const std::string>(body.substr(0, at));
    auto then = std::make_shared<const std::string>(body.substr(at));
    for (auto& p : to) p->send_both(first, then);
    return;
  }
  auto text = std::make_shared<const std::string>(body);
  for (auto& p : to) p->send(text);
}

void Relay::on(const Close& m, std::string_view) {
  std::shared_ptr<WsPeer> peer;
  {
    std::lock_guard lock(mutex_);
    if (auto it = locals_.find(m.peer); it != locals_.end()) peer = it->second.peer.lock();
  }
  if (peer) peer->close(m.code);
}

void Relay::on(const Bye& m, std::string_view) {
  auto it = remotes_.find({m.from, m.peer});
  if (it == remotes_.end()) return;
  turns_->post([client = std::move(it->second.client)] { client->on_close(); });
  remotes_.erase(it);
}

void Relay::on(const Credit& m, std::string_view) { rooms_->credit(m.peer); }

void Relay::on(const ChatCredit& m, std::string_view) { rooms_->chat_credit(m.peer); }

void Relay::on(const Followed& m, std::string_view) { settle(m.ticket); }

void Relay::on(const Sync&, std::string_view) {}  // its number was all it carried

void Relay::on(const Reset& m, std::string_view) { reset_link(m.from, false); }

// A seek of a connection here was paired on the pool's node, where its room is.
void Relay::on(const Paired& m, std::string_view) {
  rooms_->paired(m.peer, m.seek, "", m.room, m.seat);
}

void Relay::on(const Unsay& m, std::string_view) { rooms_->unsay(m.room, m.channel, m.n); }

void Relay::on(const StandingChanged& m, std::string_view) {
  rooms_->refresh_standing(m.identity, m.banned, m.shadow_until);
}

void Relay::on(const Revoked& m, std::string_view) {
  rooms_->close_connections(m.identity, false, m.token);
}

// The frame as its node wrote it, to each connection.
void Relay::on(const ToIdentity& m, std::string_view body) {
  rooms_->tell_identity(m.identity, std::make_shared<const std::string>(body), m.open_only,
                        m.except_node == node_ ? m.except_peer : 0);
}

void Relay::reset_link(const std::string& node, bool tell) {
  spdlog::warn(
      "cluster: messages between this node and {} were lost; the connections that spoke "
      "across start again",
      node);
  metrics::cluster(metrics::Cluster::link_reset);
  close_locals([&](const Local& l) { return l.nodes.contains(node); });
  settle_sent_to(node);
  drop_remotes_of(node);
  if (tell) push(Outgoing(Outgoing::direct, node, 0, Reset{node_}));
}

void Relay::drop_remotes_of(const std::string& node) {
  auto it = remotes_.lower_bound({node, 0});
  while (it != remotes_.end() && it->first.first == node) {
    turns_->post([client = std::move(it->second.client)] { client->on_close(); });
    it = remotes_.erase(it);
  }
}

}  // namespace tanbo_server::server::cluster
