#pragma once
// The lobby across nodes: each node writes its own listing under its own key and reads the
// others'; and which nodes are live. Called on a cluster thread, with its connection.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.hpp"
#include "server/cluster/redis.hpp"

namespace tanbo_server::server::cluster {

// SET tanbo:lobby:<node> PX lease, then PUBLISH tanbo:lobby <node>; false when Redis refused.
bool write_listing(RedisConnection& redis, const std::string& node, const engine::Json& listing,
                   std::chrono::milliseconds lease);
// Every node's listing but `self`'s, by node; nullopt when Redis could not be read (the caller
// keeps what it had). A listing that is not a JSON array counts as empty.
std::optional<std::map<std::string, std::vector<engine::Json>>> read_listings(
    RedisConnection& redis, const std::string& self);
// The ids of the live nodes (their keys::node not expired); nullopt when Redis could not be read.
std::optional<std::vector<std::string>> live_nodes(RedisConnection& redis);

}  // namespace tanbo_server::server::cluster
