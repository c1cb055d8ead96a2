#pragma once
// This server as a node of a cluster (--cluster): its listing and room leases (node.hpp), its
// relay to the other nodes (relay.hpp), the pools of Play now in Redis (redis_seeks.hpp), and
// what the rooms tell the other nodes (a removed chat line, a new standing, revoked tokens).
#include <functional>
#include <memory>
#include <string>

#include "server/cluster/node.hpp"

namespace tanbo_server::server {
class RoomService;
}

namespace tanbo_server::server::cluster {

class Relay;

class Member {
 public:
  // Takes a room over from the store when its node is gone; false when it could not.
  using Adopt = std::function<bool(const std::string& room)>;

  // Connects to Redis and hands the rooms their relay, their pools and what they tell the other
  // nodes; nothing runs yet. Null, with `error`, when Redis cannot be reached. The node exists
  // before recovery, so the rooms recovery brings back are claimed as new ones are (claim()).
  static std::unique_ptr<Member> join(NodeOptions options, std::shared_ptr<RoomService> rooms,
                                      Adopt adopt, std::string& error);
  ~Member();
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;

  // Claims a recovered room for this node at start; false when another node holds it.
  bool claim(const std::string& room);
  // Once the network listens: the relay's threads, then this node's listing, `address` the one
  // the other nodes' clients would reach it at. False, with `error`, when Redis refused it.
  bool start(const std::string& address, std::string& error);
  // The first step of a stop, before the connections close: no room is taken over any more (its
  // timers would run while the room threads are being joined), and the other nodes' requests
  // wait for the rooms' next node.
  void stop_taking_work();
  // Once the rooms are shut down: the relay sends what is queued and stops, and this node's keys
  // go now rather than when their leases expire, so the other nodes take its rooms over at once.
  void leave();

 private:
  Member(std::unique_ptr<Node> node, std::shared_ptr<RoomService> rooms);

  std::unique_ptr<Node> node_;
  std::shared_ptr<RoomService> rooms_;
  std::shared_ptr<Relay> relay_;
};

}  // namespace tanbo_server::server::cluster
