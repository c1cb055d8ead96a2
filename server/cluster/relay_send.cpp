// The sender thread: what the connections and rooms queued, published on the nodes' channels,
// pipelined (one round trip for all that waits) and numbered per link.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <mutex>
#include <utility>

#include "protocol/server.hpp"
#include "server/cluster/keys.hpp"
#include "server/cluster/listings.hpp"
#include "server/cluster/relay.hpp"
#include "server/cluster/scripts.hpp"
#include "server/metrics/metrics.hpp"

namespace tanbo_server::server::cluster {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// A room created on another node has an owner key a moment later; so long its requests wait.
constexpr auto kOwnerWait = milliseconds(1000);
constexpr auto kDeferredRetry = milliseconds(20);
// After a message may have been lost on a link, a sync goes there this often until one arrives,
// for this long at most (a node that stays unreachable that long has lost its listing, and its
// connections were closed when it went).
constexpr auto kSyncEvery = milliseconds(200);
constexpr auto kSyncFor = std::chrono::seconds(30);

// A request no node holds the target of, answered on its connection.
protocol::Json nobody_holds(Forwarder::Target target, const std::string& name,
                            const protocol::Id& re) {
  using protocol::ErrorCode;
  switch (target) {
    case Forwarder::Target::room:
      return protocol::error(ErrorCode::no_such_room, "no room " + name, re);
    case Forwarder::Target::identity:
      return protocol::error(ErrorCode::player_offline, "that player is not connected", re);
    case Forwarder::Target::challenge:
      break;
  }
  return protocol::error(ErrorCode::no_such_challenge, "no challenge " + name + " is open", re);
}

}  // namespace

void Relay::send_loop() {
  RedisConnection redis(redis_, timeouts_);
  redis.connect();
  for (;;) {
    std::deque<Outgoing> batch;
    bool last = false;
    {
      std::unique_lock lock(mutex_);
      auto ready = [&] { return stopping_ || !queue_.empty(); };
      if (!deferred_.empty())
        wake_.wait_for(lock, kDeferredRetry, ready);
      else if (!doubtful_.empty())
        wake_.wait_for(lock, kSyncEvery, ready);
      else
        wake_.wait(lock, ready);
      batch.swap(deferred_);
      std::move(queue_.begin(), queue_.end(), std::back_inserter(batch));
      queue_.clear();
      last = sender_done_ = stopping_;
    }
    if (!batch.empty()) flush(redis, batch);
    if (!doubtful_.empty()) sync_doubtful(redis);
    if (last) return;
  }
}

std::optional<std::vector<std::string>> Relay::resolve(RedisConnection& redis, const Outgoing& o) {
  if (!o.node.empty()) return std::vector<std::string>{o.node};
  if (o.target == Target::identity) {
    auto reply = scripts_.run(redis, kPresentNodes, {keys::presence(o.name)}, {});
    if (reply.is_error()) return std::nullopt;
    std::vector<std::string> nodes;
    if (const auto* a = reply.array())
      for (const auto& n : *a)
        if (auto text = n.text()) nodes.push_back(std::move(*text));
    return nodes;
  }
  auto reply = redis.command(
      {"GET", o.target == Target::room ? keys::room_owner(o.name) : keys::challenge(o.name)});
  if (reply.is_error()) return std::nullopt;
  auto owner = reply.text();
  if (!owner || owner->empty()) return std::vector<std::string>{};
  return std::vector<std::string>{std::move(*owner)};
}

void Relay::Batch::add(Published p) {
  if (!std::holds_alternative<Frame>(p.message)) open_frame.erase(p.node);
  out.push_back(std::move(p));
}

// What waits, as messages. Consecutive frames of one buffer for one node (a room's broadcast)
// become one message naming every peer.
void Relay::flush(RedisConnection& redis, std::deque<Outgoing>& queued) {
  Batch batch;
  for (auto& o : queued) {
    switch (o.kind) {
      case Outgoing::request:
        flush_request(redis, o, batch);
        break;
      case Outgoing::frame:
        flush_frame(o, batch);
        break;
      case Outgoing::direct:
        batch.add({o.node, std::move(o.message), nullptr});
        break;
      case Outgoing::notice:
        flush_notice(redis, o, batch);
        break;
    }
  }
  publish(redis, batch.out);
}

void Relay::flush_request(RedisConnection& redis, Outgoing& o, Batch& batch) {
  auto asker = o.local.lock();
  if (!asker) {  // closed meanwhile
    settle(o.ticket);
    return;
  }
  if (batch.waiting.contains(o.peer)) {
    deferred_.push_back(std::move(o));
    return;
  }
  auto found = resolve(redis, o);
  if (!found) {  // Redis did not answer: whether anyone holds the target is not known
    if (o.ticket)
      settle(o.ticket);
    else
      asker->send(protocol::share(
          protocol::error(protocol::ErrorCode::unknown_outcome,
                          o.target == Target::room
                              ? "the server nodes cannot reach each other now; resume to see"
                              : "the server nodes cannot reach each other now; try again shortly",
                          o.re)));
    metrics::cluster(metrics::Cluster::unknown_outcome, 1);
    return;
  }
  // Another node holding it; of an identity's nodes, any one takes a challenge (it tells the
  // others).
  std::string owner;
  bool here = false;  // named this node, which the request did not find here: nobody holds it
  for (auto& n : *found) {
    here |= n == node_;
    if (n != node_ && owner.empty()) owner = std::move(n);
  }
  // A room's owner key, or a challenge's, can be on its way: made a moment ago elsewhere.
  if (owner.empty() && !here && o.target != Target::identity &&
      Clock::now() - o.since < kOwnerWait) {
    batch.waiting.insert(o.peer);
    deferred_.push_back(std::move(o));
    return;
  }
  if (owner.empty()) {
    if (o.ticket)  // the connection is not in such a room anywhere: nothing to follow
      settle(o.ticket);
    else
      asker->send(protocol::share(nobody_holds(o.target, o.name, o.re)));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (auto it = locals_.find(o.peer); it != locals_.end()) it->second.nodes.insert(owner);
    if (auto it = awaited_.find(o.ticket); it != awaited_.end()) it->second.node = owner;
  }
  batch.add(
      {owner, std::move(o.message), std::move(o.text), std::move(asker), o.name, o.re, o.ticket});
}

void Relay::flush_frame(Outgoing& o, Batch& batch) {
  if (o.then) {  // one message for both, cut at `split` on arrival
    batch.open_frame.erase(o.node);
    batch.out.push_back({o.node, Frame{{o.peer}, o.text->size()},
                         std::make_shared<const std::string>(*o.text + *o.then)});
    return;
  }
  if (auto it = batch.open_frame.find(o.node);
      it != batch.open_frame.end() && batch.out[it->second].body == o.text) {
    std::get<Frame>(batch.out[it->second].message).peers.push_back(o.peer);
    return;
  }
  batch.open_frame[o.node] = batch.out.size();
  batch.out.push_back({o.node, Frame{{o.peer}, std::nullopt}, std::move(o.text)});
}

void Relay::flush_notice(RedisConnection& redis, Outgoing& o, Batch& batch) {
  if (o.node == kEveryNode) {
    for (const auto& node : live_nodes(redis).value_or(std::vector<std::string>{}))
      if (node != node_) batch.add({node, o.message, nullptr});
    return;
  }
  auto to = resolve(redis, o);
  if (!to) return;  // not known: untold
  for (const auto& node : *to)
    if (node != node_) batch.add({node, o.message, o.text});
}

// One PUBLISH per message, all in one round trip, each numbered on its link. What Redis did not
// answer may be lost or may still arrive: a request of it is answered unknown_outcome (the
// client resumes to learn which), and its link is in doubt until a later message arrives there.
void Relay::publish(RedisConnection& redis, std::vector<Published>& out) {
  if (out.empty()) return;
  std::vector<std::vector<std::string>> commands;
  commands.reserve(out.size());
  for (auto& m : out) {
    auto head = encode(m.message);
    head["from"] = node_;
    stamps_.stamp(m.node, head);
    commands.push_back({"PUBLISH", keys::node_channel(m.node),
                        payload(head, m.body ? std::string_view(*m.body) : std::string_view())});
  }
  auto replies = redis.pipeline(commands);
  std::size_t answered = 0, doubtful = 0;
  const auto now = Clock::now();
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto& r = replies[i];
    const auto& m = out[i];
    const bool received = r.integer().value_or(0) > 0;
    if (received)
      doubtful_.erase(m.node);
    else
      doubtful_.try_emplace(m.node, now);
    if (m.ticket && !received) settle(m.ticket);  // lost: nothing will follow it
    if (r.is_error()) {
      if (m.asker && !m.ticket) {
        ++doubtful;
        m.asker->send(protocol::share(protocol::error(
            protocol::ErrorCode::unknown_outcome,
            m.room + "'s server node may not have received this; resume to see", m.re)));
      }
      continue;
    }
    ++answered;
    // A request nobody received: its node is gone, and the room moves once its lease expires.
    if (m.asker && !m.ticket && r.integer() == 0)
      m.asker->send(protocol::share(protocol::error(
          protocol::ErrorCode::room_moved,
          m.room + "'s server node cannot be reached; join it again shortly", m.re)));
  }
  // While Redis is away every flush fails: one line a second, with the count, not one a flush.
  lost_ += out.size() - answered;
  if (lost_ && Clock::now() - lost_logged_ >= std::chrono::seconds(1)) {
    spdlog::warn("cluster: {} messages to other nodes may be lost: {}", lost_, redis.last_error());
    lost_ = 0;
    lost_logged_ = Clock::now();
  }
  metrics::cluster(metrics::Cluster::published, answered);
  metrics::cluster(metrics::Cluster::forwarded,
                   std::size_t(std::count_if(out.begin(), out.end(), [](const Published& m) {
                     return m.asker != nullptr;
                   })));
  metrics::cluster(metrics::Cluster::unknown_outcome, doubtful);
}

void Relay::sync_doubtful(RedisConnection& redis) {
  const auto now = Clock::now();
  if (now - last_sync_ < kSyncEvery) return;
  last_sync_ = now;
  std::vector<Published> out;
  for (auto it = doubtful_.begin(); it != doubtful_.end();) {
    if (now - it->second > kSyncFor) {
      it = doubtful_.erase(it);
      continue;
    }
    out.push_back({it->first, Sync{}, nullptr});
    ++it;
  }
  publish(redis, out);
}

}  // namespace tanbo_server::server::cluster
