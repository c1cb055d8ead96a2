#pragma once
// This server as one node of a cluster sharing a Redis (docs/operations.md, "Cluster (Redis)"):
// it registers itself, owns its rooms through expiring leases, and shares its lobby listing with
// the other nodes while reading theirs.
//
// Two threads of its own, each with its own connection, talk to Redis; nothing else does, so no
// network or room thread ever waits on it. The worker thread registers and renews, claims and
// releases rooms and writes and reads the listings; the subscriber thread only listens on
// tanbo:lobby and wakes the worker. Results go where their reader lives: listings into the Lobby
// (behind its own lock), a lost room to Room::lose, which posts itself to the room's strand.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/cluster/redis.hpp"
#include "server/cluster/scripts.hpp"

namespace tanbo_server::server {
class Lobby;
}

namespace tanbo_server::server::cluster {

struct NodeOptions {
  RedisAddress redis;
  std::string id;  // unique among the nodes
  std::chrono::milliseconds lease{5000};
  std::chrono::milliseconds lobby_debounce{200};  // at most one listing write per this, on change
  RedisTimeouts timeouts;
};

// A random node id: 12 hex digits.
std::string random_node_id();

class Node {
 public:
  // Watches `lobby` from now on (rooms added meanwhile are claimed once started) and names this
  // node in its entries.
  Node(NodeOptions options, std::shared_ptr<Lobby> lobby);
  ~Node();  // leave()
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Taking over a room of a node that left or died: `adopt` rebuilds it from the store (false
  // when there is nothing to rebuild: finished, abandoned); `gone` hears of each node that left.
  // Both run on the worker thread. Call before connect().
  struct Takeover {
    std::function<bool(const std::string& room)> adopt;
    std::function<void(const std::string& node)> gone;
  };
  void on_takeover(Takeover takeover) { takeover_ = std::move(takeover); }

  // Connects to Redis; false with `error` when it cannot be reached.
  bool connect(std::string& error);
  // Recovery at start, once connected: true when this node may rebuild `room` (it is now its
  // owner, or already was under this node's id). A room another node holds is left to it; one
  // whose holder is gone is taken over once its lease expires.
  bool claim_at_start(const std::string& room);
  // Registers the node as reached at `address` (HOST:PORT) and starts the threads (connecting
  // first if connect() was not called); false with `error` when Redis cannot be reached.
  bool start(std::string address, std::string& error);
  // A stop's first step: from now on no room is taken over (one being rebuilt is finished
  // first), so that the rooms can shut down; the other nodes take the orphans instead.
  void stop_taking_over();
  // The clean leave: stops the threads, then deletes the node's keys (node, lobby listing, the
  // owner keys it still holds) and tells the others. Idempotent.
  void leave();

  const std::string& id() const { return options_.id; }

 private:
  // What the lobby's observer and the subscriber hand the worker; guarded by mutex.
  struct Inbox {
    std::mutex mutex;
    std::condition_variable wake;
    std::vector<std::string> claims, releases;
    bool listing_changed = false;
    bool others_changed = false;
    bool stopping = false;
  };

  void work();
  void listen();
  void register_node(RedisConnection& redis);
  void renew(RedisConnection& redis);
  void claim(RedisConnection& redis, const std::string& room);
  // Tries each orphaned room again: an expired or released key is taken and the room rebuilt; a
  // room a live node holds is dropped. Renews on the way when a renewal falls due.
  void adopt_orphans(RedisConnection& redis, std::chrono::steady_clock::time_point& next_renewal);
  bool is_live(RedisConnection& redis, const std::string& node);
  // SET the room's owner key to this node if no node holds it (OK, or nil when one does).
  RedisReply take_key(RedisConnection& redis, const std::string& room);
  std::chrono::milliseconds renew_every() const;  // a third of the lease
  void lose(const std::string& room, const std::string& owner);
  void write_listing(RedisConnection& redis);
  void read_listings(RedisConnection& redis);
  void say_goodbye(RedisConnection& redis);
  void note_connection(const RedisConnection& redis);

  NodeOptions options_;
  std::shared_ptr<Lobby> lobby_;
  std::shared_ptr<Inbox> inbox_;
  std::string address_;
  std::int64_t started_at_ms_;                           // Unix ms
  std::unique_ptr<RedisConnection> worker_redis_;        // the worker thread's once started
  std::set<std::string> owned_;                          // room ids; the worker thread's
  std::map<std::string, std::set<std::string>> listed_;  // others' rooms by node, as last read
  std::set<std::string> orphans_;  // rooms of nodes gone, not yet owned again; the worker's
  Takeover takeover_;
  std::mutex takeover_mutex_;  // held while a room is taken over
  bool taking_over_ = true;    // guarded by takeover_mutex_
  // After a reconnect the others' keys may be missing only because Redis restarted empty: no
  // node counts as gone until each had a lease to write its keys again.
  std::uint64_t generation_ = 0;
  std::chrono::steady_clock::time_point trust_gone_after_{};
  std::chrono::steady_clock::time_point last_listing_{};
  bool was_connected_ = true;
  Scripts scripts_;
  std::thread worker_, subscriber_;
  bool left_ = false;
};

}  // namespace tanbo_server::server::cluster
