#include "server/cluster/node.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>
#include <utility>

#include "server/cluster/keys.hpp"
#include "server/cluster/listings.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/room.hpp"

namespace tanbo_server::server::cluster {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

std::int64_t unix_ms_now() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string random_node_id() {
  std::random_device rd;
  std::uniform_int_distribution<int> hex(0, 15);
  std::string id;
  for (int i = 0; i < 12; ++i) id += "0123456789abcdef"[hex(rd)];
  return id;
}

Node::Node(NodeOptions options, std::shared_ptr<Lobby> lobby)
    : options_(std::move(options)),
      lobby_(std::move(lobby)),
      inbox_(std::make_shared<Inbox>()),
      started_at_ms_(unix_ms_now()) {
  lobby_->set_node(options_.id);
  // The inbox, not the node: the lobby may outlive this object by a moment at shutdown.
  lobby_->observe([inbox = inbox_](const std::string& room, Lobby::Change change) {
    {
      std::lock_guard lock(inbox->mutex);
      if (change == Lobby::Change::added) inbox->claims.push_back(room);
      if (change == Lobby::Change::removed) inbox->releases.push_back(room);
      inbox->listing_changed = true;
    }
    inbox->wake.notify_one();
  });
}

Node::~Node() {
  leave();
  lobby_->observe(nullptr);
}

bool Node::connect(std::string& error) {
  if (!worker_redis_)
    worker_redis_ = std::make_unique<RedisConnection>(options_.redis, options_.timeouts);
  if (worker_redis_->connect()) return true;
  error = worker_redis_->last_error();
  return false;
}

bool Node::claim_at_start(const std::string& room) {
  auto& redis = *worker_redis_;
  auto r = take_key(redis, room);
  auto owner = r.is_nil() ? redis.command({"GET", keys::room_owner(room)}).text() : std::nullopt;
  if (r.text() == "OK" || owner == options_.id) {
    owned_.insert(room);
    return true;
  }
  // Redis refused, or the holder is gone without a goodbye: taken once its lease expires.
  if (r.is_error() || !owner || !is_live(redis, *owner)) orphans_.insert(room);
  return false;
}

RedisReply Node::take_key(RedisConnection& redis, const std::string& room) {
  return redis.command({"SET", keys::room_owner(room), options_.id, "NX", "PX",
                        std::to_string(options_.lease.count())});
}

std::chrono::milliseconds Node::renew_every() const {
  return std::max(options_.lease / 3, milliseconds(1));
}

bool Node::is_live(RedisConnection& redis, const std::string& node) {
  return node == options_.id || redis.command({"EXISTS", keys::node(node)}).integer() == 1;
}

bool Node::start(std::string address, std::string& error) {
  address_ = std::move(address);
  if (!connect(error)) return false;
  register_node(*worker_redis_);
  if (!worker_redis_->connected()) {
    error = worker_redis_->last_error();
    return false;
  }
  generation_ = worker_redis_->generation();  // only a reconnect makes the others' keys doubtful
  spdlog::info("cluster: node {} at {} joined {} (lease {} ms)", options_.id, address_,
               redis_url(options_.redis), options_.lease.count());
  worker_ = std::thread([this] { work(); });
  subscriber_ = std::thread([this] { listen(); });
  return true;
}

void Node::stop_taking_over() {
  std::lock_guard lock(takeover_mutex_);
  taking_over_ = false;
}

void Node::leave() {
  if (left_) return;
  left_ = true;
  {
    std::lock_guard lock(inbox_->mutex);
    inbox_->stopping = true;
  }
  inbox_->wake.notify_all();
  if (subscriber_.joinable()) subscriber_.join();
  if (worker_.joinable()) worker_.join();  // it says goodbye on its way out
}

void Node::register_node(RedisConnection& redis) {
  engine::Json j = {{"id", options_.id}, {"address", address_}, {"started_at", started_at_ms_}};
  auto r = redis.command(
      {"SET", keys::node(options_.id), j.dump(), "PX", std::to_string(options_.lease.count())});
  // An unreachable Redis is note_connection's to report, once.
  if (r.is_error() && redis.connected())
    spdlog::warn("cluster: node {} not renewed: {}", options_.id, r.error());
}

void Node::note_connection(const RedisConnection& redis) {
  if (redis.connected() == was_connected_) return;
  was_connected_ = redis.connected();
  if (was_connected_)
    spdlog::info("cluster: back in touch with {}", redis_url(options_.redis));
  else
    spdlog::error("cluster: lost {}: {}; retrying (the leases expire after {} ms)",
                  redis_url(options_.redis), redis.last_error(), options_.lease.count());
}

void Node::claim(RedisConnection& redis, const std::string& room) {
  owned_.insert(room);
  auto r = take_key(redis, room);
  if (!r.is_nil()) return;  // ours now; or Redis is away, and the next renewal takes it
  auto owner = redis.command({"GET", keys::room_owner(room)}).text();
  if (owner && *owner != options_.id) lose(room, *owner);
}

// A room another node holds goes from here: two owners would each accept actions.
void Node::lose(const std::string& room, const std::string& owner) {
  owned_.erase(room);
  spdlog::error("cluster: room {} is owned by node {}, not by this node {}", room, owner,
                options_.id);
  if (auto r = lobby_->find(room))
    r->lose("room " + room + " is now run by another server node (" + owner +
            "); this node has let it go");
}

void Node::renew(RedisConnection& redis) {
  register_node(redis);
  if (!owned_.empty()) {
    std::vector<std::string> rooms(owned_.begin(), owned_.end()), room_keys;
    for (const auto& id : rooms) room_keys.push_back(keys::room_owner(id));
    auto r = scripts_.run(redis, kRenewRooms, room_keys,
                          {options_.id, std::to_string(options_.lease.count())});
    if (r.is_error()) {
      if (redis.connected()) spdlog::warn("cluster: room leases not renewed: {}", r.error());
    } else if (const auto* lost = r.array()) {
      for (std::size_t i = 0; i + 1 < lost->size(); i += 2) {
        auto key = (*lost)[i].text(), owner = (*lost)[i + 1].text();
        if (!key || !owner) continue;
        auto at = std::find(room_keys.begin(), room_keys.end(), *key);
        if (at != room_keys.end()) lose(rooms[std::size_t(at - room_keys.begin())], *owner);
      }
    }
  }
  write_listing(redis);
}

void Node::write_listing(RedisConnection& redis) {
  last_listing_ = Clock::now();
  if (!cluster::write_listing(redis, options_.id, lobby_->local_listing(), options_.lease))
    spdlog::debug("cluster: listing not written: {}", redis.last_error());
}

// A node whose listing expired and whose own key is gone has died, or left: its rooms are
// orphans until some node owns them again (the first to take a key rebuilds the room).
void Node::read_listings(RedisConnection& redis) {
  auto others = cluster::read_listings(redis, options_.id);
  if (!others) return;
  if (redis.generation() != generation_) {
    generation_ = redis.generation();
    trust_gone_after_ = Clock::now() + options_.lease;
  }
  const bool trust_gone = Clock::now() >= trust_gone_after_;
  std::map<std::string, std::set<std::string>> listed;
  for (const auto& [node, entries] : *others)
    for (const auto& e : entries)
      if (e.is_object() && e.contains("room") && e["room"].is_string())
        listed[node].insert(e["room"].get<std::string>());
      else
        listed[node];
  for (auto& [node, rooms] : listed_) {
    if (others->contains(node)) continue;
    if (!trust_gone || is_live(redis, node)) {  // lost with Redis, say: kept till written again
      listed[node] = std::move(rooms);
      continue;
    }
    spdlog::warn("cluster: node {} is gone; taking over its {} rooms", node, rooms.size());
    orphans_.insert(rooms.begin(), rooms.end());
    if (takeover_.gone) takeover_.gone(node);
  }
  listed_ = std::move(listed);
  lobby_->set_remote(std::move(*others));
}

void Node::adopt_orphans(RedisConnection& redis, Clock::time_point& next_renewal) {
  for (auto it = orphans_.begin(); it != orphans_.end();) {
    std::lock_guard lock(takeover_mutex_);
    if (!taking_over_) return;
    const std::string room = *it;
    auto r = take_key(redis, room);
    if (r.is_error()) return;  // Redis is away: next round
    if (r.is_nil()) {
      auto owner = redis.command({"GET", keys::room_owner(room)}).text();
      // Held still by the node gone (its lease runs out soon), or taken by a live one.
      bool settled = owner && is_live(redis, *owner);
      it = settled ? orphans_.erase(it) : std::next(it);
      continue;
    }
    owned_.insert(room);
    it = orphans_.erase(it);
    if (takeover_.adopt && takeover_.adopt(room)) {
      spdlog::info("cluster: room {} taken over by node {}", room, options_.id);
      metrics::cluster(metrics::Cluster::taken_over);
    } else {  // nothing to rebuild (finished meanwhile): the key goes
      owned_.erase(room);
      scripts_.run(redis, kReleaseIfOwner, {keys::room_owner(room)}, {options_.id});
    }
    if (Clock::now() >= next_renewal) {
      renew(redis);
      next_renewal = Clock::now() + renew_every();
    }
  }
}

void Node::say_goodbye(RedisConnection& redis) {
  for (const auto& room : owned_)
    scripts_.run(redis, kReleaseIfOwner, {keys::room_owner(room)}, {options_.id});
  owned_.clear();
  redis.command({"DEL", keys::lobby(options_.id), keys::node(options_.id)});
  redis.command({"PUBLISH", std::string(keys::kLobbyChannel), options_.id});
  spdlog::info("cluster: node {} left {}", options_.id, redis_url(options_.redis));
}

// Renewal every third of the lease: two renewals may fail before a key expires. The others'
// listings are read on every notice and at least as often, which is how a dead node's rooms
// leave this lobby: its listing expires and publishes nothing.
void Node::work() {
  auto& redis = *worker_redis_;
  const auto read_every = std::min(renew_every(), milliseconds(1000));
  auto next_renewal = Clock::now();
  auto next_read = Clock::now();
  for (;;) {
    std::vector<std::string> claims, releases;
    bool changed = false, others = false;
    {
      std::unique_lock lock(inbox_->mutex);
      auto due = [&] {
        auto at = std::min(next_renewal, next_read);
        if (inbox_->listing_changed) at = std::min(at, last_listing_ + options_.lobby_debounce);
        return at;
      };
      inbox_->wake.wait_until(lock, due(), [&] {
        return inbox_->stopping || !inbox_->claims.empty() || !inbox_->releases.empty() ||
               inbox_->others_changed || Clock::now() >= due();
      });
      if (inbox_->stopping) break;
      claims.swap(inbox_->claims);
      releases.swap(inbox_->releases);
      others = std::exchange(inbox_->others_changed, false);
      if (inbox_->listing_changed && Clock::now() >= last_listing_ + options_.lobby_debounce)
        changed = std::exchange(inbox_->listing_changed, false);
    }
    for (const auto& room : claims) claim(redis, room);
    for (const auto& room : releases)
      if (owned_.erase(room))
        scripts_.run(redis, kReleaseIfOwner, {keys::room_owner(room)}, {options_.id});
    const auto now = Clock::now();
    if (now >= next_renewal) {
      renew(redis);
      next_renewal = now + renew_every();
    } else if (changed) {
      write_listing(redis);
    }
    if (others || now >= next_read) {
      read_listings(redis);
      next_read = now + read_every;
      if (!orphans_.empty()) adopt_orphans(redis, next_renewal);
    }
    note_connection(redis);
  }
  // What was queued before the stop still counts: a room removed must not keep its key.
  {
    std::lock_guard lock(inbox_->mutex);
    for (const auto& room : inbox_->releases) owned_.erase(room);
    for (const auto& room : inbox_->claims) owned_.insert(room);
  }
  say_goodbye(redis);
}

// A notice from another node wakes the worker to read the listings; after a reconnect one read
// is due anyway, for the notices missed meanwhile.
void Node::listen() {
  RedisConnection redis(options_.redis, options_.timeouts);
  bool subscribed = false;
  for (;;) {
    {
      std::lock_guard lock(inbox_->mutex);
      if (inbox_->stopping) return;
    }
    if (!subscribed) {
      auto r = redis.command({"SUBSCRIBE", std::string(keys::kLobbyChannel)});
      subscribed = !r.is_error();
      if (!subscribed) {
        std::this_thread::sleep_for(milliseconds(100));
        continue;
      }
      std::lock_guard lock(inbox_->mutex);
      inbox_->others_changed = true;
    }
    auto push = redis.next_push(milliseconds(200));
    if (!redis.connected()) {
      subscribed = false;
      continue;
    }
    if (!push) continue;
    const auto* a = push->array();
    if (!a || a->size() != 3 || (*a)[0].text() != "message" || (*a)[2].text() == options_.id)
      continue;
    {
      std::lock_guard lock(inbox_->mutex);
      inbox_->others_changed = true;
    }
    inbox_->wake.notify_one();
  }
}

}  // namespace tanbo_server::server::cluster
