#include "server/pairing/pools.hpp"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <limits>

#include "engine/core/registry.hpp"
#include "protocol/server.hpp"
#include "server/metrics/metrics.hpp"
#include "server/pairing/terms.hpp"
#include "server/rooms/room.hpp"

namespace tanbo_server::server::pairing {
namespace {

using Wall = std::chrono::system_clock;

std::int64_t ms_of(Wall::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

// The OS's secure source, as a URBG: seats are drawn (R6), and nobody may predict where.
struct SecureBits {
  using result_type = std::uint32_t;
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }
  result_type operator()() const {
    result_type v = 0;
    if (RAND_bytes(reinterpret_cast<unsigned char*>(&v), sizeof v) != 1)
      throw std::runtime_error("RAND_bytes failed");
    return v;
  }
};

std::string fresh_seek(const std::string& pool) { return "s-" + pool + "-" + random_hex(6); }

}  // namespace

Pools::Pools(PoolsOptions options, std::unique_ptr<SeekStore> store, Hooks hooks)
    : options_(options), store_(std::move(store)), hooks_(std::move(hooks)) {
  thread_ = std::thread([this] { run(); });
}

Pools::~Pools() { stop(); }

void Pools::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Pools::seek(protocol::GameTerms terms, Seeker s, SeekDone done) {
  std::lock_guard lock(mutex_);
  queue_.push_back(
      [this, terms = std::move(terms), s = std::move(s), done = std::move(done)]() mutable {
        const std::string pool = pool_id(terms);
        s.seek = fresh_seek(pool);
        s.rating = hooks_.rating ? hooks_.rating(s.identity, terms.game) : s.rating;
        s.since_ms = ms_of(Wall::now());
        bool added = false;
        try {
          added = store_->add(pool, terms, s);
        } catch (const std::exception& e) {
          spdlog::error("pairing: seek {} not stored: {}", s.seek, e.what());
          return done(std::string());  // failed: answered internal
        }
        if (!added) return done(std::nullopt);
        // Answered once the batch's publish counts the seeker: a `rooms` that follows shows it.
        answers_.push_back([done = std::move(done), seek = s.seek] { done(seek); });
        maybe_full_.insert(pool);
      });
  wake_.notify_one();
}

void Pools::unseek(std::string seek, std::string identity, std::function<void(bool)> done) {
  std::lock_guard lock(mutex_);
  queue_.push_back(
      [this, seek = std::move(seek), identity = std::move(identity), done = std::move(done)] {
        const bool removed = store_->remove(pool_of_seek(seek), seek, identity);
        answers_.push_back([done = std::move(done), removed] {
          if (done) done(removed);
        });
      });
  wake_.notify_one();
}

void Pools::note_challenge(std::string id, bool open) {
  std::lock_guard lock(mutex_);
  queue_.push_back([this, id = std::move(id), open] { store_->note_challenge(id, open); });
  wake_.notify_one();
}

void Pools::note_online() {
  if (!hooks_.present) return;
  std::lock_guard lock(mutex_);
  queue_.push_back([this] { present_due_ = true; });
  wake_.notify_one();
}

void Pools::run() {
  auto next_wave = std::chrono::steady_clock::now() + options_.wave;
  for (;;) {
    std::deque<std::function<void()>> work;
    {
      std::unique_lock lock(mutex_);
      wake_.wait_until(lock, next_wave, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_ && queue_.empty()) return;
      work.swap(queue_);
    }
    try {
      for (auto& f : work) f();
      end_batch();
      if (std::chrono::steady_clock::now() >= next_wave) {
        next_wave = std::chrono::steady_clock::now() + options_.wave;
        if (hooks_.present) store_->present(hooks_.present());
        wave(Wall::now());
      }
    } catch (const std::exception& e) {
      spdlog::error("pairing: {}", e.what());
    }
  }
}

void Pools::end_batch() {
  if (present_due_ && hooks_.present) store_->present(hooks_.present());
  present_due_ = false;
  if (answers_.empty() && maybe_full_.empty()) return;
  std::vector<Pool> pools;
  try {
    pools = store_->pools();
    publish(pools);
  } catch (const std::exception& e) {  // the answers go all the same: the seeks are stored
    spdlog::error("pairing: the pools not read: {}", e.what());
  }
  for (auto& answer : std::exchange(answers_, {})) answer();
  // Enough to fill rooms: this pool's wave now rather than at the next tick.
  for (const auto& p : pools)
    if (maybe_full_.contains(p.id) &&
        int(p.seekers.size()) >= options_.instant_rooms * p.terms.players.value_or(2))
      wave(Wall::now(), &p.id);
  maybe_full_.clear();
}

void Pools::wave(Wall::time_point now, const std::string* only) {
  auto pools = store_->pools();
  std::size_t seekers = 0, rooms = 0, waiting = 0;
  for (auto& pool : pools) {
    seekers += pool.seekers.size();
    if (only && pool.id != *only) continue;
    // The seekers of a node gone went with their connections.
    std::erase_if(pool.seekers, [&](const Seeker& s) {
      if (s.node.empty() || store_->node_alive(s.node)) return false;
      store_->take(pool.id, {s.seek});
      return true;
    });
    if (pool.seekers.empty() || !store_->lead(pool.id)) continue;
    const auto before = pool.seekers.size();
    pair_pool(pool, ms_of(now));
    rooms += before - pool.seekers.size();
  }
  pools = store_->pools();
  for (const auto& p : pools) waiting += p.seekers.size();
  if (rooms > 0)
    spdlog::info("pairing: {} seekers in {} pools, {} seated, {} waiting", seekers, pools.size(),
                 rooms, waiting);
  publish(pools);
}

// One pool's wave: the groups pair_wave chooses, then the computer for those whose wait ran out.
// `pool.seekers` keeps the ones still waiting.
void Pools::pair_pool(Pool& pool, std::int64_t now_ms) {
  std::vector<Candidate> candidates;
  for (const auto& s : pool.seekers) {
    auto last = last_opponent_.find(s.identity);
    candidates.push_back({s.rating, double(now_ms - s.since_ms) / 1000, s.identity,
                          last == last_opponent_.end() ? std::string() : last->second});
  }
  const int players = pool.terms.players.value_or(2);
  std::vector<bool> seated(pool.seekers.size());
  for (const auto& group : pair_wave(candidates, players, pool.terms.ranked, options_.params)) {
    std::vector<std::string> seeks;
    std::vector<const Seeker*> members;
    for (auto i : group) seeks.push_back(pool.seekers[i].seek), members.push_back(&pool.seekers[i]);
    if (!store_->take(pool.id, seeks)) continue;  // one of them left meanwhile: next wave
    for (auto i : group) seated[i] = true;
    if (players == 2) {
      last_opponent_[members[0]->identity] = members[1]->identity;
      last_opponent_[members[1]->identity] = members[0]->identity;
    }
    seat(pool, members, false);
  }
  for (std::size_t i = 0; i < pool.seekers.size(); ++i) {
    const Seeker& s = pool.seekers[i];
    if (seated[i] || s.cpu_after_s <= 0 || now_ms - s.since_ms < std::int64_t(s.cpu_after_s) * 1000)
      continue;
    if (!store_->take(pool.id, {s.seek})) continue;
    seated[i] = true;
    metrics::pairing_cpu_fallback();
    seat(pool, {&s}, true);
  }
  std::vector<Seeker> left;
  for (std::size_t i = 0; i < pool.seekers.size(); ++i)
    if (!seated[i]) left.push_back(std::move(pool.seekers[i]));
  pool.seekers = std::move(left);
}

// Makes the room and tells each seeker its seat. People's seats are drawn (R6); with the
// computer the person takes seat 0 and the room is never ranked.
void Pools::seat(const Pool& pool, const std::vector<const Seeker*>& group, bool with_cpu) {
  NewRoom room{pool.terms, {}};
  std::vector<const Seeker*> order = group;
  if (with_cpu) {
    room.terms.ranked = false;
    const int players = pool.terms.players.value_or(2);
    room.seats.push_back({order[0]->identity, order[0]->name});
    for (int s = 1; s < players; ++s) room.seats.push_back(cpu_identity(order[0]->level));
  } else {
    std::shuffle(order.begin(), order.end(), SecureBits{});
    for (const auto* s : order) room.seats.push_back({s->identity, s->name});
  }
  const std::string id = hooks_.create_room(room);
  if (id.empty()) return spdlog::error("pairing: a room for pool {} could not be made", pool.id);
  const auto now = ms_of(Wall::now());
  for (std::size_t seat = 0; seat < order.size(); ++seat) {
    if (!with_cpu)
      metrics::paired(pool.terms.game, std::chrono::milliseconds(now - order[seat]->since_ms));
    const Seeker& s = *order[seat];
    if (!s.node.empty() && s.node != options_.node)
      store_->tell(s, id, int(seat));  // its node tells its connection
    else
      hooks_.deliver(s, id, int(seat));
  }
}

void Pools::publish(const std::vector<Pool>& pools) {
  std::map<std::string, double> per_game;
  auto list = protocol::Json::array();
  for (const auto& p : pools) {
    list.push_back(protocol::pool_json({p.terms, int(p.seekers.size())}));
    per_game[p.terms.game] += double(p.seekers.size());
  }
  std::sort(list.begin(), list.end());  // the same pools, the same list, whatever the order read
  if (list == published_) return;
  for (const auto* g : engine::all_games()) metrics::pool_seekers(g->id, per_game[g->id]);
  published_ = list;
  if (hooks_.publish) hooks_.publish(list);
}

}  // namespace tanbo_server::server::pairing
