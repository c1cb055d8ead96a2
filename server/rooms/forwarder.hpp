#pragma once
// Where a request about a room this node does not run goes, in a cluster: to the node that runs
// it (server/cluster/relay.hpp), whose answers come back to the same connection. Alone, a
// server has none and such a request is answered no_such_room.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/client.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"

namespace tanbo_server::server {

class Forwarder {
 public:
  virtual ~Forwarder() = default;
  // What a forwarded request is about, which names the node it goes to: a room (its owner), an
  // identity (the node of its connection: a challenge), a challenge (the node holding it).
  enum class Target { room, identity, challenge };
  // Sends `text`, a request of `who` on `peer` about `name`, to its node; one no node holds is
  // answered on `peer` (re): no_such_room, player_offline, no_such_challenge. Requests of one
  // peer arrive in order.
  // `standing` travels with it: the room's node applies the sender's mutes and shadow mute.
  virtual void forward(Target target, const std::string& name, const std::shared_ptr<WsPeer>& peer,
                       const Identity& who, const Standing& standing, std::string_view text,
                       const protocol::Id& re) = 0;
  // `text` changed the connection's own standing (a mute or unmute): the node of room `room`
  // applies it to the rooms it runs for `peer`. `followed` runs, on any thread, once that node
  // has, or once it is known that it never will (no node holds the room, its node is gone, Redis
  // lost the message): whatever waits on it is never left waiting. Nothing is answered on `peer`.
  virtual void forward_standing(const std::string& room, const std::shared_ptr<WsPeer>& peer,
                                const Identity& who, const Standing& standing,
                                std::string_view text, std::function<void()> followed) = 0;
  // The connection closed: every node it spoke to lets it go (as a local room's disconnect).
  virtual void closed(std::uint64_t peer_id) = 0;
};

}  // namespace tanbo_server::server
