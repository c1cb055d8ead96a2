#pragma once
// Play now (docs/protocol.md, "Play now"): the pools of seekers and their pairing waves. One
// thread of its own runs every request and every wave in order, so the pools need no lock and
// a store that blocks (Redis, in a cluster) blocks nobody else. Requests come from the
// connections' strands and answer through callbacks; rooms are made and seekers told through
// the hooks the room service gives.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/identity/identities.hpp"
#include "server/pairing/matching.hpp"
#include "server/pairing/seeks.hpp"

namespace tanbo_server::server::pairing {

struct PoolsOptions {
  std::chrono::milliseconds wave{2000};  // a wave this often...
  int instant_rooms = 8;  // ...or at once when a pool holds this many rooms' worth of seekers
  WaveParams params;
  std::string node;  // this node's id in a cluster: its seekers are told here, others' there
};

// A room a wave makes: its terms and who sits where (the computer as its identity).
struct NewRoom {
  protocol::GameTerms terms;
  std::vector<Identity> seats;
};

class Pools {
 public:
  struct Hooks {
    std::function<std::string(const NewRoom&)> create_room;  // the room's id; empty: failed
    // Tells a seeker, wherever its connection is, that it holds `seat` in `room`.
    std::function<void(const Seeker&, const std::string& room, int seat)> deliver;
    // The seeker's rating in the game (may block: this thread only waits on it).
    std::function<double(const std::string& identity, const std::string& game)> rating;
    std::function<void(protocol::Json pools)> publish;  // pool_json's list, when it changed
    std::function<std::set<std::string>()> present;     // the identities connected here
  };
  Pools(PoolsOptions options, std::unique_ptr<SeekStore> store, Hooks hooks);
  ~Pools();  // stop()
  Pools(const Pools&) = delete;
  Pools& operator=(const Pools&) = delete;
  // Joins the thread after the requests queued so far. Idempotent.
  void stop();

  // `terms` normalized (check_terms); `s` without its seek id and rating, which are made here.
  // `done` gets the seek id, nullopt when this identity already waits in that pool, or an empty
  // one when the store failed.
  using SeekDone = std::function<void(std::optional<std::string> seek)>;
  void seek(protocol::GameTerms terms, Seeker s, SeekDone done);
  // `done(false)`: no such seek of `identity` waits.
  void unseek(std::string seek, std::string identity, std::function<void(bool)> done);
  // A challenge opened (or ended) on this node: a cluster's other nodes route to it here.
  void note_challenge(std::string id, bool open);
  // An identity came online here: a cluster's other nodes can reach it before the next wave.
  void note_online();

 private:
  void run();
  void wave(std::chrono::system_clock::time_point now, const std::string* only = nullptr);
  void pair_pool(Pool& pool, std::int64_t now_ms);
  void seat(const Pool& pool, const std::vector<const Seeker*>& group, bool with_cpu);
  void publish(const std::vector<Pool>& pools);

  PoolsOptions options_;
  std::unique_ptr<SeekStore> store_;
  Hooks hooks_;

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;

  // The thread's own.
  // What a batch of requests leaves to its end, so that a batch costs one read of the pools,
  // one publish and one wave per pool however many seeks it holds: the answers (each given
  // after the publish that counts it), the pools that may fill rooms at once, the presence.
  std::vector<std::function<void()>> answers_;
  std::set<std::string> maybe_full_;
  bool present_due_ = false;
  void end_batch();
  std::map<std::string, std::string> last_opponent_;  // identity -> the one it last played
  protocol::Json published_;
  std::thread thread_;
};

}  // namespace tanbo_server::server::pairing
