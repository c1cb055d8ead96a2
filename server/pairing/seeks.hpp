#pragma once
// Where the Play now pools keep their seekers: in memory for a server alone, in Redis for a
// cluster (server/cluster/redis_seeks.hpp), so that every node's seekers are in one pool. Called
// from the pairing service's own thread only; an implementation may block there.
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/client.hpp"

namespace tanbo_server::server::pairing {

struct Seeker {
  std::string seek;  // "s-" + pool id + "-" + random: unseek finds the pool from it
  std::string identity, name;
  double rating = 1500;
  std::int64_t since_ms = 0;  // wall clock, shared by the nodes
  int cpu_after_s = 0;        // 0: never
  protocol::CpuLevel level = protocol::CpuLevel::mcts;
  std::string node;  // where its connection is; empty alone
  std::uint64_t peer = 0;
  friend bool operator==(const Seeker&, const Seeker&) = default;
};
protocol::Json to_json(const Seeker& s);
std::optional<Seeker> seeker_from_json(const protocol::Json& j);
// The pool id a seek id names (empty when it names none).
std::string pool_of_seek(const std::string& seek);

struct Pool {
  std::string id;
  protocol::GameTerms terms;
  std::vector<Seeker> seekers;  // oldest first
};

class SeekStore {
 public:
  virtual ~SeekStore() = default;
  // False when this identity already waits in the pool.
  virtual bool add(const std::string& pool, const protocol::GameTerms& terms, const Seeker& s) = 0;
  // False when no such seek of this identity waits.
  virtual bool remove(const std::string& pool, const std::string& seek,
                      const std::string& identity) = 0;
  // Every pool someone waits in.
  virtual std::vector<Pool> pools() = 0;
  // Takes every one of `seeks` out of the pool, or none of them (one left meanwhile).
  virtual bool take(const std::string& pool, const std::vector<std::string>& seeks) = 0;
  // True while this node runs the pool's waves (a lease in a cluster; always alone).
  virtual bool lead(const std::string& pool) = 0;
  // False for a node that is gone: its seekers are dropped.
  virtual bool node_alive(const std::string& node) = 0;
  // A seeker of another node holds `seat` of `room` (made here): that node tells its connection.
  virtual void tell(const Seeker&, const std::string& /*room*/, int /*seat*/) {}
  // The identities with a connection here, now and then: a cluster's other nodes find them.
  virtual void present(const std::set<std::string>& /*identities*/) {}
  virtual void note_challenge(const std::string& /*id*/, bool /*open*/) {}
};

class MemorySeeks final : public SeekStore {
 public:
  bool add(const std::string& pool, const protocol::GameTerms& terms, const Seeker& s) override;
  bool remove(const std::string& pool, const std::string& seek,
              const std::string& identity) override;
  std::vector<Pool> pools() override;
  bool take(const std::string& pool, const std::vector<std::string>& seeks) override;
  bool lead(const std::string&) override { return true; }
  bool node_alive(const std::string&) override { return true; }

 private:
  std::unordered_map<std::string, Pool> pools_;
};

}  // namespace tanbo_server::server::pairing
