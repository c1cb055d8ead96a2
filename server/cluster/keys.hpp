#pragma once
// What the cluster keeps in Redis (docs/operations.md, "Cluster (Redis)"). Every key but the
// channel expires with the lease unless its node renews it.
#include <string>
#include <string_view>

namespace tanbo_server::server::cluster::keys {

// A live node: JSON {id, address, started_at}.
inline std::string node(std::string_view id) { return "tanbo:node:" + std::string(id); }
// A room's owner: the node id.
inline std::string room_owner(std::string_view room) {
  return "tanbo:room:" + std::string(room) + ":owner";
}
// A node's lobby listing: a JSON array of the entries its lobby serves, each with "node".
inline constexpr std::string_view kLobbyPrefix = "tanbo:lobby:";
inline std::string lobby(std::string_view node) {
  return std::string(kLobbyPrefix) + std::string(node);
}
// Pub/sub: everything for one node's rooms and connections (server/cluster/relay.hpp).
inline std::string node_channel(std::string_view node) { return "tanbo:to:" + std::string(node); }
// Play now (server/cluster/redis_seeks.hpp): the pools someone waits in (a set of pool ids),
// each pool's terms, its seekers (seek id -> seeker JSON) and who waits (identity -> seek id),
// and the lease of the node running its waves.
inline constexpr std::string_view kPools = "tanbo:pools";
inline std::string pool(std::string_view id, std::string_view part) {
  return "tanbo:pool:" + std::string(id) + ":" + std::string(part);
}
// The nodes an identity has a connection on: a sorted set of node ids, each scored with the end
// of its lease in Redis' own milliseconds (server/cluster/scripts.hpp, kPresent).
inline std::string presence(std::string_view identity) {
  return "tanbo:presence:" + std::string(identity);
}
// The node holding an open challenge.
inline std::string challenge(std::string_view id) { return "tanbo:challenge:" + std::string(id); }

// Pub/sub: a node wrote its listing; the message is its id.
inline constexpr std::string_view kLobbyChannel = "tanbo:lobby";

}  // namespace tanbo_server::server::cluster::keys
