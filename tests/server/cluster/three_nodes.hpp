#pragma once
// Three nodes on one Redis and one fresh PostgreSQL database, all real processes on loopback: the
// cluster the cluster tests run.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/cluster/redis_process.hpp"
#include "tests/server/store/support.hpp"

namespace tanbo_server::server::test {

using namespace std::chrono_literals;
using tanbo_server::server::store::testing::PgCluster;

inline constexpr auto kLease = 1500ms;

// The cluster a test runs: Redis, a fresh PostgreSQL database, three nodes. Without Redis or
// PostgreSQL here the test fails, or under TANBO_TEST_ALLOW_MISSING=1 this is null and the test
// returns, reported as skipped (tests/support/missing.hpp).
struct Cluster {
  std::unique_ptr<RedisProcess> redis;
  std::string store;
  std::chrono::milliseconds lease{};
  std::vector<std::string> flags;
  std::vector<std::unique_ptr<Node>> nodes;
  std::vector<std::uint16_t> ports;
  std::atomic<int> dead{-1};             // the node a test stopped, if any
  std::vector<std::string> killed_logs;  // the logs of the nodes crash_and_restart killed
  mutable std::mutex ports_mutex;        // a node started again listens on another port

  std::uint16_t port_of(std::size_t n) const {
    std::lock_guard lock(ports_mutex);
    return ports[n % ports.size()];
  }
  // A node still up, other than `n`'s turn would give when that one is dead.
  std::uint16_t live_port(std::size_t n) const {
    std::lock_guard lock(ports_mutex);
    if (int(n % ports.size()) == dead) ++n;
    return ports[n % ports.size()];
  }
  // kill -9 of node `n`, then the same node (its id) started again: as a crashed node's
  // supervisor would. Clients find it on its new port.
  void crash_and_restart(std::size_t n) {
    dead = int(n);
    nodes[n]->kill();
    killed_logs.push_back(nodes[n]->process().stderr_text());
    auto again = std::make_unique<Node>(*redis, "n" + std::to_string(n), lease, store, flags);
    std::lock_guard lock(ports_mutex);
    ports[n] = again->port();
    nodes[n] = std::move(again);
    dead = -1;
  }
  std::string owner(const std::string& room) const {
    return redis->command({"GET", "tanbo:room:" + room + ":owner"}).text().value_or("");
  }
  // The nodes Redis names for an identity's connections, whose lease has not run out.
  std::set<std::string> present_on(const std::string& identity) const {
    std::set<std::string> nodes;
    auto r = redis->command({"ZRANGE", "tanbo:presence:" + identity, "0", "-1"});
    if (const auto* a = r.array())
      for (const auto& n : *a) nodes.insert(n.text().value_or(""));
    return nodes;
  }
  // Whether every node lists `room`, waiting 5 s at most: the others learn of a room within the
  // lobby's debounce, and only then do joins through them go to its owner and a failover take it.
  bool listed_everywhere(const std::string& room) const {
    const auto listed_on = [&](std::uint16_t port) {
      const nlohmann::json lobby = get_json(port, "/api/rooms");
      for (const auto& r : lobby.at("rooms"))
        if (r.at("room") == room) return true;
      return false;
    };
    for (int i = 0; i < 50; ++i) {
      if (std::all_of(ports.begin(), ports.end(), listed_on)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }
};

inline std::unique_ptr<Cluster> start_cluster(std::chrono::milliseconds lease = kLease,
                                              const std::vector<std::string>& flags = {}) {
  auto binary = find_redis_server();
  if (binary.empty() && tanbo_server::test::skip_missing(kNoRedis)) return nullptr;
  if (auto why = PgCluster::get().why_not();
      !why.empty() && tanbo_server::test::skip_missing("PostgreSQL cannot run here: " + why))
    return nullptr;
  auto c = std::make_unique<Cluster>();
  c->redis = std::make_unique<RedisProcess>(binary);
  c->store = PgCluster::get().fresh_database();
  c->lease = lease;
  c->flags = flags;
  for (int i = 0; i < 3; ++i) {
    c->nodes.push_back(
        std::make_unique<Node>(*c->redis, "n" + std::to_string(i), lease, c->store, flags));
    c->ports.push_back(c->nodes.back()->port());
  }
  return c;
}

}  // namespace tanbo_server::server::test
