#pragma once
// Where a request about a room this node does not run goes, in a cluster: to the node that runs
// it (server/cluster/relay.hpp), whose answers come back to the same connection. Alone, a
// server has none and such a request is answered no_such_room.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "protocol/client.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"

namespace tanbo::server {

class Forwarder {
 public:
  virtual ~Forwarder() = default;
  // Sends `text`, a request of `who` on `peer` about `room`, to the room's node; a room no node
  // runs is answered no_such_room (re) on `peer`. Requests of one peer arrive in order.
  virtual void forward(const std::string& room, const std::shared_ptr<WsPeer>& peer,
                       const Identity& who, std::string_view text, const protocol::Id& re) = 0;
  // The connection closed: every node it spoke to lets it go (as a local room's disconnect).
  virtual void closed(std::uint64_t peer_id) = 0;
};

}  // namespace tanbo::server
