#pragma once
// The directory of rooms and what the lobby shows of them. Rooms publish their summary on every
// change; watchers get the changes batched, at most one `lobby` push per interval.
// In a cluster (server/cluster/) the lobby also lists the other nodes' rooms as their nodes wrote
// them to Redis, and every entry it serves names its node.
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/server.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/executor.hpp"

namespace tanbo_server::server {

class Room;

class Lobby final : public std::enable_shared_from_this<Lobby> {
 public:
  Lobby(RoomsExecutor ex, std::chrono::milliseconds push_interval);

  void add(std::shared_ptr<Room> room);
  std::shared_ptr<Room> find(const std::string& id) const;
  // A new room id, never one the lobby holds (recovered rooms included).
  std::string fresh_id() const;
  // Rooms call these from their strands.
  void publish(protocol::RoomSummary summary, const std::string& owner);
  // What most moves change: whose turn it is and when that turn's time ends. False when the
  // lobby lists no summary of the room to change (then the room publishes one).
  bool turned(const std::string& room, std::optional<engine::Seat> to_move,
              std::optional<std::int64_t> deadline_ms);
  void remove(const std::string& id);

  std::vector<protocol::RoomSummary> list(const std::optional<std::string>& game) const;
  // Rooms `owner` created that have not finished.
  int open_rooms(const std::string& owner) const;
  // Rooms created from `address` (a limit key) that have not finished.
  int open_rooms_from(const std::string& address) const;
  // The seats `identity` holds in rooms not finished, as welcome lists them (in a cluster, the
  // other nodes' rooms' as last read).
  std::vector<protocol::SeatRef> seats_of(const std::string& identity) const;
  // The games `identity` holds a seat in, not finished, as `my_games` lists them (its turn or
  // not; `waiting`: only those waiting for its decision), the other nodes' included.
  protocol::Json games_of(const std::string& identity, bool waiting) const;
  // Every room now listed (shutdown stops each).
  std::vector<std::shared_ptr<Room>> rooms() const;
  std::size_t size() const;
  // Drops every room and watcher (shutdown: rooms hold the lobby, the lobby holds them).
  void clear();

  void watch(std::shared_ptr<WsPeer> peer);
  void unwatch(std::uint64_t peer_id);

  // What `rooms`, `watch_lobby` and GET /api/rooms show: this node's rooms, then the other
  // nodes'; each entry is protocol::room_json's, plus "node" in a cluster.
  protocol::Json listing(const std::optional<std::string>& game) const;

  // The Play now pools someone waits in (protocol::pool_json's objects), as the pairing
  // service last counted them; watchers get them with the next push when they changed.
  void set_pools(protocol::Json pools);
  protocol::Json pools(const std::optional<std::string>& game) const;

  // --- The cluster's side (server/cluster/); unused on a node alone. ---
  // Entries name `node` from now on. Call before the first room.
  void set_node(std::string node);
  // This node's rooms only, as listing() shows them.
  protocol::Json local_listing() const;
  // The other nodes' rooms as last read, by node; replaces the previous set, and watchers get
  // what changed. Entries naming a room of this node are ignored.
  void set_remote(std::map<std::string, std::vector<protocol::Json>> by_node);
  // The node whose listing holds room `id`, as last read; empty when no other node lists it.
  std::string node_of(const std::string& id) const;
  enum class Change { added, listed, removed };
  // Told of every room added, listed anew or removed. Runs under the lobby's lock: it must only
  // queue work, never call the lobby back.
  void observe(std::function<void(const std::string& room, Change)> observer);

 private:
  struct Entry {
    std::shared_ptr<Room> room;
    std::optional<protocol::RoomSummary> summary;  // absent until the room first publishes
    std::string owner;
    std::string address;
  };
  void schedule();  // under mutex_
  void push();
  protocol::Json entry(const protocol::RoomSummary& s) const;  // under mutex_
  void tell(const std::string& room, Change change) const;     // under mutex_
  void relisted(const std::string& room);  // under mutex_: watchers, observer, next push

  boost::asio::strand<RoomsExecutor> strand_;
  boost::asio::steady_timer timer_;
  std::chrono::milliseconds interval_;

  mutable std::mutex mutex_;
  std::map<std::string, Entry> rooms_;
  std::unordered_map<std::uint64_t, std::weak_ptr<WsPeer>> watchers_;
  std::set<std::string> changed_, removed_;
  bool scheduled_ = false;
  std::string node_;
  std::map<std::string, protocol::Json> remote_;  // by room id
  std::set<std::string> remote_changed_;
  std::function<void(const std::string&, Change)> observer_;
  std::chrono::steady_clock::time_point last_push_{};
  protocol::Json pools_ = protocol::Json::array();
  bool pools_changed_ = false;
};

}  // namespace tanbo_server::server
