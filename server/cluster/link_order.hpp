#pragma once
// Pub/sub delivers a message at most once: what a node publishes while Redis is frozen, or while
// the receiving node is resubscribing, can be lost without anyone hearing of it, and a client
// would wait for a state that never comes. So each message between two nodes carries its
// sender's run (one per process) and a number counting the messages of that link, from that
// sender to that receiver. The receiver sees a loss as a gap in the numbers; a message that
// arrives after a later one (published on a connection given up for dead, then delivered) is
// stale. Either way both ends reset the link (docs/operations.md, "Cluster (Redis)").
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace tanbo_server::server::cluster {

// The sender's side: the next number on each link.
class LinkStamps {
 public:
  LinkStamps();  // a run drawn at random, told apart from any earlier one of this node
  // Adds `run` and `seq` to a message for `to`.
  void stamp(const std::string& to, nlohmann::json& head);

 private:
  std::uint64_t run_;
  std::map<std::string, std::uint64_t> last_;
};

// The receiver's side: the last number seen from each sender.
class LinkArrivals {
 public:
  enum class Verdict {
    in_order,   // the next one, or the first from this run of its sender
    after_gap,  // messages before it were lost: the link must be reset, then this one taken
    stale       // older than one already taken: dropped
  };
  Verdict check(const nlohmann::json& head);

 private:
  struct Link {
    std::uint64_t run = 0, seq = 0;
  };
  std::map<std::string, Link> links_;
};

}  // namespace tanbo_server::server::cluster
