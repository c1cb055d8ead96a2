#pragma once
// Where a room writes each change before anyone sees it (durable before visible). The room calls
// append() on its strand and waits for `done` before broadcasting; a persistent journal completes
// later, from its own thread. The in-memory journal completes at once.
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo_server::server {

struct JournalEntry {
  enum class Kind : std::uint8_t {
    created,
    seat,
    action,
    rematch,
    finished,
    timer,
    abandoned,
    chat
  };
  Kind kind = Kind::created;
  std::string room;
  std::uint64_t version = 0;
  engine::Seat seat = engine::kNoSeat;
  // created: {head (Record::to_json, seed included), owner, ranked, timer}; rematch: {head};
  // seat: {player, name} or null; action: the action JSON or "resign"; finished: the result;
  // timer: the room's timer settings and clocks as RoomRow.timer keeps them; abandoned: null;
  // chat: {channel, n, identity, name, text, phrase, at}.
  engine::Json data;
  int game = 1;  // the room's game number (1, then one more per rematch); the room sets it
  // The room's owner epoch, which a shared store checks (Store::check_epoch); the room sets it.
  std::int64_t epoch = 0;
  engine::Json clocks = nullptr;  // action: a game clock's remaining ms per seat after it
  std::int64_t at = 0;            // action: the step's wall-clock time, which deadlines count from
  std::string by = {};            // action: why the computer chose it (its event's `by`), or empty
  // finished: where a journal that rates games puts what the result did to the ratings (per
  // seat {before, after}, or null) before it says done; null: nobody asks.
  std::shared_ptr<engine::Json> ratings = nullptr;
};

// What became of an append.
enum class Appended : std::uint8_t {
  stored,       // committed: it may be shown
  unavailable,  // the store failed (a full disk, a lost connection): nothing written, try again
  refused,      // the store refused it as it stands (a version already logged): never stored
  fenced,       // another node took the room over: never stored, and this node must let it go
};

class RoomJournal {
 public:
  virtual ~RoomJournal() = default;
  // `done` runs exactly once, from any thread.
  virtual void append(JournalEntry entry, std::function<void(Appended)> done) = 0;
};

class MemoryJournal final : public RoomJournal {
 public:
  void append(JournalEntry entry, std::function<void(Appended)> done) override {
    {
      std::lock_guard lock(mutex_);
      entries_.push_back(std::move(entry));
    }
    done(Appended::stored);
  }
  std::vector<JournalEntry> entries() const {
    std::lock_guard lock(mutex_);
    return entries_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<JournalEntry> entries_;
};

}  // namespace tanbo_server::server
