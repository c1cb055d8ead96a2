#pragma once
// The directory of rooms and what the lobby shows of them. Rooms publish their summary on every
// change; watchers get the changes batched, at most one `lobby` push per interval.
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
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

namespace tanbo::server {

class Room;

class Lobby final : public std::enable_shared_from_this<Lobby> {
 public:
  Lobby(boost::asio::any_io_executor ex, std::chrono::milliseconds push_interval);

  void add(std::shared_ptr<Room> room);
  std::shared_ptr<Room> find(const std::string& id) const;
  // Rooms call these from their strands.
  void publish(protocol::RoomSummary summary, const std::string& owner);
  void remove(const std::string& id);

  std::vector<protocol::RoomSummary> list(const std::optional<std::string>& game) const;
  // Rooms `owner` created that have not finished.
  int open_rooms(const std::string& owner) const;
  // The seats `identity` holds in rooms not finished, as welcome lists them.
  std::vector<protocol::SeatRef> seats_of(const std::string& identity) const;
  // Every room now listed (shutdown stops each).
  std::vector<std::shared_ptr<Room>> rooms() const;
  std::size_t size() const;
  // Drops every room and watcher (shutdown: rooms hold the lobby, the lobby holds them).
  void clear();

  void watch(std::shared_ptr<WsPeer> peer);
  void unwatch(std::uint64_t peer_id);

 private:
  struct Entry {
    std::shared_ptr<Room> room;
    std::optional<protocol::RoomSummary> summary;  // absent until the room first publishes
    std::string owner;
  };
  void schedule();  // under mutex_
  void push();

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  boost::asio::steady_timer timer_;
  std::chrono::milliseconds interval_;

  mutable std::mutex mutex_;
  std::map<std::string, Entry> rooms_;
  std::unordered_map<std::uint64_t, std::weak_ptr<WsPeer>> watchers_;
  std::set<std::string> changed_, removed_;
  bool scheduled_ = false;
  std::chrono::steady_clock::time_point last_push_{};
};

}  // namespace tanbo::server
