#pragma once
// The Play now pools of a cluster, in Redis: one pool for every node (docs/operations.md,
// "Cluster (Redis)", Play now). Each pool's seekers sit in a hash any node may add to or remove
// from; its waves run on whichever node holds its lease (the same pattern as room owners), so
// a node's death moves the waves, not the seekers. Every step that must not be split (a seek
// refused for its identity, a group taken out all at once) is one Lua script.
//
// Also the presence keys the challenges need: the nodes an identity has connections on.
//
// Used from the pairing thread only, with a connection of its own.
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "server/cluster/redis.hpp"
#include "server/cluster/scripts.hpp"
#include "server/pairing/seeks.hpp"

namespace tanbo_server::server::cluster {

class RedisSeeks final : public pairing::SeekStore {
 public:
  RedisSeeks(RedisAddress redis, std::string node, std::chrono::milliseconds lease,
             RedisTimeouts timeouts = {});

  bool add(const std::string& pool, const protocol::GameTerms& terms,
           const pairing::Seeker& s) override;
  bool remove(const std::string& pool, const std::string& seek,
              const std::string& identity) override;
  std::vector<pairing::Pool> pools() override;
  bool take(const std::string& pool, const std::vector<std::string>& seeks) override;
  bool lead(const std::string& pool) override;
  bool node_alive(const std::string& node) override;
  void tell(const pairing::Seeker& s, const std::string& room, int seat) override;
  void present(const std::set<std::string>& identities) override;
  void note_challenge(const std::string& id, bool open) override;

 private:
  RedisConnection redis_;
  std::string node_;
  std::chrono::milliseconds lease_;
  Scripts scripts_;
  // node_alive's answers, read once a lease: a wave asks for every seeker.
  std::map<std::string, bool> alive_;
  std::chrono::steady_clock::time_point alive_read_{};
  std::set<std::string> present_;  // the identities whose keys name this node
  std::chrono::steady_clock::time_point presence_renewed_{};
};

}  // namespace tanbo_server::server::cluster
