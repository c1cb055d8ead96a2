#include "server/cluster/relay.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>
#include <mutex>
#include <utility>

#include "protocol/server.hpp"
#include "server/cluster/keys.hpp"
#include "server/cluster/listings.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/client.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"

namespace tanbo::server::cluster {
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
// A notice's destination meaning every other live node; no node id has a '*'.
constexpr std::string_view kEveryNode = "*";

// A message on a node's channel: a JSON head on the first line, then the body verbatim (a
// client's request, or a frame), so a frame is never escaped into another JSON document.
std::string message(const engine::Json& head, std::string_view body = {}) {
  std::string out = head.dump();
  out += '\n';
  out.append(body);
  return out;
}

// A connection of another node, as the rooms here see it: what they send it goes back there.
class RemotePeer final : public WsPeer {
 public:
  RemotePeer(std::weak_ptr<Relay> relay, std::string node, std::uint64_t peer,
             std::uint64_t local_id)
      : relay_(std::move(relay)), node_(std::move(node)), peer_(peer), id_(local_id) {}

  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override {
    if (auto r = relay_.lock()) r->send_to(node_, peer_, std::move(text));
  }
  void send_both(std::shared_ptr<const std::string> first,
                 std::shared_ptr<const std::string> then) override {
    if (auto r = relay_.lock()) r->send_to(node_, peer_, std::move(first), std::move(then));
  }
  void close(CloseCode code) override {
    if (auto r = relay_.lock()) r->close_on(node_, peer_, code);
  }
  // The receiver thread hands this connection's requests to its Client; work for it from
  // elsewhere (a challenge accepted here) takes the same lock, so the Client sees one at a time.
  void post(std::function<void()> fn) override {
    std::lock_guard lock(turn_);
    fn();
  }
  std::recursive_mutex& turn() { return turn_; }

 private:
  std::recursive_mutex turn_;
  std::weak_ptr<Relay> relay_;
  std::string node_;
  std::uint64_t peer_;
  std::uint64_t id_;
};

}  // namespace

Relay::Relay(RedisAddress redis, std::string node, RedisTimeouts timeouts,
             std::shared_ptr<RoomService> rooms, std::shared_ptr<Lobby> lobby)
    : redis_(std::move(redis)),
      node_(std::move(node)),
      timeouts_(timeouts),
      rooms_(std::move(rooms)),
      lobby_(std::move(lobby)) {}

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
  for (auto& [key, remote] : remotes_) remote.client->on_close();
  remotes_.clear();
}

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

Relay::Outgoing Relay::request(Target target, const std::string& name,
                               const std::shared_ptr<WsPeer>& peer, const Identity& who,
                               const Standing& standing, std::string_view text,
                               std::uint64_t ticket) {
  engine::Json head = {{"k", "req"},
                       {"from", node_},
                       {"peer", peer->id()},
                       {"id", who.id},
                       {"name", who.name},
                       {"username", who.username},
                       {"mutes", standing.mutes},
                       {"shadow_until", standing.shadow_until}};
  if (ticket) head["ticket"] = ticket;
  Outgoing o(Outgoing::request, target == Target::room ? lobby_->node_of(name) : std::string(),
             peer->id());
  o.head = std::move(head);
  o.text = std::make_shared<const std::string>(text);
  o.target = target;
  o.name = name;
  o.local = peer;
  o.ticket = ticket;
  o.since = Clock::now();
  {
    std::lock_guard lock(mutex_);
    locals_[peer->id()].peer = peer;
  }
  return o;
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

void Relay::closed(std::uint64_t peer_id) {
  std::set<std::string> nodes;
  {
    std::lock_guard lock(mutex_);
    auto it = locals_.find(peer_id);
    if (it == locals_.end()) return;
    nodes = std::move(it->second.nodes);
    locals_.erase(it);
  }
  for (const auto& n : nodes) push(Outgoing(Outgoing::bye, n, peer_id));
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
  Outgoing o(Outgoing::close, node, peer);
  o.code = code;
  push(std::move(o));
}

void Relay::notify(Target target, const std::string& name, engine::Json head) {
  Outgoing o(Outgoing::notice, target == Target::room ? lobby_->node_of(name) : std::string(), 0);
  o.target = target;
  o.name = name;
  o.head = std::move(head);
  push(std::move(o));
}

void Relay::notify_all(engine::Json head) {
  Outgoing o(Outgoing::notice, std::string(kEveryNode), 0);
  o.head = std::move(head);
  push(std::move(o));
}

void Relay::credit_on(const std::string& node, std::uint64_t peer, bool chat) {
  push(Outgoing(chat ? Outgoing::chat_credit : Outgoing::credit, node, peer));
}

// --- The sender ---

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

std::string Relay::resolve(RedisConnection& redis, const Outgoing& o) {
  if (!o.node.empty()) return o.node;
  const std::string key = o.target == Target::room       ? keys::room_owner(o.name)
                          : o.target == Target::identity ? keys::online(o.name)
                                                         : keys::challenge(o.name);
  auto owner = redis.command({"GET", key}).text();
  return owner.value_or(std::string());
}

// What waits, as messages. Consecutive frames of one buffer for one node (a room's broadcast)
// become one message naming every peer.
void Relay::flush(RedisConnection& redis, std::deque<Outgoing>& batch) {
  std::vector<Published> out;
  std::map<std::string, std::size_t> open_frame;  // node -> its last message, if a frame
  std::set<std::uint64_t> waiting;                // peers with a request deferred
  for (auto& o : batch) {
    switch (o.kind) {
      case Outgoing::request: {
        auto asker = o.local.lock();
        if (!asker) {  // closed meanwhile
          settle(o.ticket);
          break;
        }
        if (waiting.contains(o.peer)) {
          deferred_.push_back(std::move(o));
          break;
        }
        std::string owner = resolve(redis, o);
        // Only a room's owner key can be on its way: a room made a moment ago elsewhere.
        if (owner.empty() && o.target == Target::room && Clock::now() - o.since < kOwnerWait) {
          waiting.insert(o.peer);
          deferred_.push_back(std::move(o));
          break;
        }
        if (owner.empty() || owner == node_) {
          if (o.ticket) {  // the connection is not in such a room anywhere: nothing to follow
            settle(o.ticket);
            break;
          }
          using protocol::ErrorCode;
          asker->send(protocol::share(
              o.target == Target::room
                  ? protocol::error(ErrorCode::no_such_room, "no room " + o.name, o.re)
              : o.target == Target::identity
                  ? protocol::error(ErrorCode::player_offline, "that player is not connected", o.re)
                  : protocol::error(ErrorCode::no_such_challenge,
                                    "no challenge " + o.name + " is open", o.re)));
          break;
        }
        {
          std::lock_guard lock(mutex_);
          if (auto it = locals_.find(o.peer); it != locals_.end()) it->second.nodes.insert(owner);
          if (auto it = awaited_.find(o.ticket); it != awaited_.end()) it->second.node = owner;
        }
        open_frame.erase(owner);
        out.push_back({owner, std::move(o.head), std::move(o.text), std::move(asker), o.name, o.re,
                       o.ticket});
        break;
      }
      case Outgoing::frame: {
        if (o.then) {  // one message for both, cut at `split` on arrival
          open_frame.erase(o.node);
          out.push_back({o.node,
                         {{"k", "frame"}, {"peers", {o.peer}}, {"split", o.text->size()}},
                         std::make_shared<const std::string>(*o.text + *o.then)});
          break;
        }
        if (auto it = open_frame.find(o.node);
            it != open_frame.end() && out[it->second].body == o.text) {
          out[it->second].head["peers"].push_back(o.peer);
          break;
        }
        open_frame[o.node] = out.size();
        out.push_back({o.node, {{"k", "frame"}, {"peers", {o.peer}}}, std::move(o.text)});
        break;
      }
      case Outgoing::close:
        open_frame.erase(o.node);
        out.push_back({o.node, {{"k", "close"}, {"peer", o.peer}, {"code", int(o.code)}}, nullptr});
        break;
      case Outgoing::bye:
        open_frame.erase(o.node);
        out.push_back({o.node, {{"k", "bye"}, {"from", node_}, {"peer", o.peer}}, nullptr});
        break;
      case Outgoing::credit:
      case Outgoing::chat_credit:
        open_frame.erase(o.node);
        out.push_back(
            {o.node,
             {{"k", o.kind == Outgoing::credit ? "credit" : "chat_credit"}, {"peer", o.peer}},
             nullptr});
        break;
      case Outgoing::followed:
        open_frame.erase(o.node);
        out.push_back({o.node, {{"k", "followed"}, {"ticket", o.ticket}}, nullptr});
        break;
      case Outgoing::notice: {
        if (o.node == kEveryNode) {
          for (const auto& node : live_nodes(redis).value_or(std::vector<std::string>{}))
            if (node != node_) {
              open_frame.erase(node);
              out.push_back({node, o.head, nullptr});
            }
          break;
        }
        std::string to = resolve(redis, o);
        if (to.empty() || to == node_) break;  // held nowhere else: nothing to tell
        open_frame.erase(to);
        out.push_back({to, std::move(o.head), nullptr});
        break;
      }
    }
  }
  publish(redis, out);
}

// One PUBLISH per message, all in one round trip, each numbered on its link. What Redis did not
// answer may be lost or may still arrive: a request of it is answered unknown_outcome (the
// client resumes to learn which), and its link is in doubt until a later message arrives there.
void Relay::publish(RedisConnection& redis, std::vector<Published>& out) {
  if (out.empty()) return;
  std::vector<std::vector<std::string>> commands;
  commands.reserve(out.size());
  for (auto& m : out) {
    m.head["from"] = node_;
    stamps_.stamp(m.node, m.head);
    commands.push_back({"PUBLISH", keys::node_channel(m.node),
                        message(m.head, m.body ? std::string_view(*m.body) : std::string_view())});
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
    out.push_back({it->first, {{"k", "sync"}}, nullptr});
    ++it;
  }
  publish(redis, out);
}

// --- The receiver ---

void Relay::receive_loop() {
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

void Relay::on_message(const std::string& payload) {
  auto eol = payload.find('\n');
  if (eol == std::string::npos) return;
  auto head = engine::Json::parse(std::string_view(payload).substr(0, eol), nullptr, false);
  if (!head.is_object()) return;
  std::string_view body = std::string_view(payload).substr(eol + 1);
  try {
    switch (arrivals_.check(head)) {
      case LinkArrivals::Verdict::in_order:
        break;
      case LinkArrivals::Verdict::after_gap:
        reset_link(head.at("from").get<std::string>(), true);
        break;
      case LinkArrivals::Verdict::stale:
        return;
    }
    const auto kind = head.value("k", std::string());
    if (kind == "req")
      on_request(head, body);
    else if (kind == "frame")
      on_frame(head, std::make_shared<const std::string>(body));
    else if (kind == "close")
      on_close(head);
    else if (kind == "bye")
      on_bye(head);
    else if (kind == "credit" || kind == "chat_credit")
      on_credit(head);
    else if (kind == "paired")
      on_paired(head);
    else if (kind == "unsay")
      on_unsay(head);
    else if (kind == "followed")
      on_followed(head);
    else if (kind == "reset")
      reset_link(head.at("from").get<std::string>(), false);
    else if (kind == "revoked")
      rooms_->close_connections(head.at("identity").get<std::string>(), false,
                                head.value("token", std::string()));
    else if (kind == "standing")
      rooms_->refresh_standing(head.at("identity").get<std::string>(), head.value("banned", false),
                               head.value("shadow_until", std::int64_t(0)));
  } catch (const engine::Json::exception& e) {
    spdlog::warn("cluster: a malformed message on node channel: {}", e.what());
  }
}

void Relay::on_request(const engine::Json& head, std::string_view body) {
  RemoteKey key{head.at("from").get<std::string>(), head.at("peer").get<std::uint64_t>()};
  auto it = remotes_.find(key);
  if (it == remotes_.end()) {
    auto peer =
        std::make_shared<RemotePeer>(weak_from_this(), key.first, key.second, next_remote_id_++);
    Identity who{head.at("id").get<std::string>(), head.at("name").get<std::string>(),
                 head.value("username", std::string())};
    auto credit = [weak = weak_from_this(), node = key.first, p = key.second](bool chat) {
      if (auto r = weak.lock()) r->credit_on(node, p, chat);
    };
    auto client = rooms_->remote_client(
        peer->id(), std::move(who), [credit] { credit(false); }, [credit] { credit(true); });
    client->attach(peer);
    it = remotes_.emplace(key, Remote{std::move(peer), std::move(client)}).first;
  }
  std::lock_guard lock(static_cast<RemotePeer&>(*it->second.peer).turn());
  it->second.client->use_standing({false, head.value("shadow_until", std::int64_t(0)),
                                   head.value("mutes", std::vector<std::string>{})});
  it->second.client->on_text(it->second.peer, body);
  // A standing's change is now in the rooms' queues, ahead of anything said after this.
  if (auto t = head.find("ticket"); t != head.end()) {
    Outgoing o(Outgoing::followed, key.first, key.second);
    o.ticket = t->get<std::uint64_t>();
    push(std::move(o));
  }
  metrics::cluster(metrics::Cluster::served);
}

void Relay::on_frame(const engine::Json& head, std::shared_ptr<const std::string> text) {
  std::vector<std::shared_ptr<WsPeer>> to;
  {
    std::lock_guard lock(mutex_);
    for (const auto& p : head.at("peers"))
      if (auto it = locals_.find(p.get<std::uint64_t>()); it != locals_.end())
        if (auto peer = it->second.peer.lock()) to.push_back(std::move(peer));
  }
  metrics::cluster(metrics::Cluster::delivered, to.size());
  if (auto split = head.find("split"); split != head.end()) {  // an answer and its state
    const auto at = std::min(split->get<std::size_t>(), text->size());
    auto first = std::make_shared<const std::string>(text->substr(0, at));
    auto then = std::make_shared<const std::string>(text->substr(at));
    for (auto& p : to) p->send_both(first, then);
    return;
  }
  for (auto& p : to) p->send(text);
}

void Relay::on_close(const engine::Json& head) {
  std::shared_ptr<WsPeer> peer;
  {
    std::lock_guard lock(mutex_);
    if (auto it = locals_.find(head.at("peer").get<std::uint64_t>()); it != locals_.end())
      peer = it->second.peer.lock();
  }
  if (peer) peer->close(CloseCode(head.at("code").get<int>()));
}

void Relay::on_bye(const engine::Json& head) {
  auto it =
      remotes_.find({head.at("from").get<std::string>(), head.at("peer").get<std::uint64_t>()});
  if (it == remotes_.end()) return;
  auto client = std::move(it->second.client);
  remotes_.erase(it);
  client->on_close();
}

// A seek of a connection here was paired on the pool's node, where its room is.
void Relay::on_paired(const engine::Json& head) {
  rooms_->paired(head.at("peer").get<std::uint64_t>(), head.at("seek").get<std::string>(), "",
                 head.at("room").get<std::string>(), head.at("seat").get<int>());
}

void Relay::on_unsay(const engine::Json& head) {
  rooms_->unsay(
      head.at("room").get<std::string>(),
      head.at("channel") == "players" ? protocol::Channel::players : protocol::Channel::spectators,
      head.at("n").get<std::int64_t>());
}

void Relay::on_credit(const engine::Json& head) {
  const auto peer = head.at("peer").get<std::uint64_t>();
  if (head.at("k") == "chat_credit")
    rooms_->chat_credit(peer);
  else
    rooms_->credit(peer);
}

void Relay::on_followed(const engine::Json& head) {
  settle(head.at("ticket").get<std::uint64_t>());
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
  if (tell) {
    Outgoing o(Outgoing::notice, node, 0);
    o.head = {{"k", "reset"}};
    push(std::move(o));
  }
}

void Relay::drop_remotes_of(const std::string& node) {
  auto it = remotes_.lower_bound({node, 0});
  while (it != remotes_.end() && it->first.first == node) {
    auto client = std::move(it->second.client);
    it = remotes_.erase(it);
    client->on_close();
  }
}

}  // namespace tanbo::server::cluster
