#pragma once
// A room's time control as arithmetic (docs/protocol.md, "Time controls"): the per-decision
// timer, the game clock with its increment, correspondence days. No timer and no clock read: the
// room passes the wall-clock time (Unix ms) in and arms its own timer at deadline().
#include <chrono>
#include <cstdint>
#include <vector>

#include "engine/core/game.hpp"
#include "protocol/server.hpp"
#include "protocol/time_control.hpp"

namespace tanbo_server::server {

// A time control as the room's timer settings keep it, and back: per_decision as
// {seconds, takeover} (the form the store and recovery read for it), the others as {control}.
engine::Json timer_settings(const protocol::TimeControl& tc);
protocol::TimeControl time_control_of(const engine::Json& timer_settings);

class RoomClock {
 public:
  // `second`: a timer second (tests shorten it); `day`: a correspondence day, 0 for 86,400
  // timer seconds.
  RoomClock(protocol::TimeControl control, std::chrono::milliseconds second,
            std::chrono::milliseconds day);

  const protocol::TimeControl& control() const { return control_; }
  bool timed() const { return control_.timed(); }
  bool game_clock() const { return control_.kind == Kind::clock; }
  bool per_decision() const { return control_.kind == Kind::per_decision; }
  bool correspondence() const { return control_.kind == Kind::correspondence; }
  // A seat out of time loses (game clock, correspondence); a per-decision timer has the CPU
  // decide instead.
  bool loses_on_time() const { return game_clock() || correspondence(); }

  // A new game at `now` with `seats` seats (0: none started): every seat's base time, the
  // deciding seat's running (kNoSeat: nobody decides).
  void start(std::int64_t now, std::size_t seats, engine::Seat deciding);
  // A game brought back: its last step's time as journaled, a game clock's time per seat as that
  // step left it (ignored unless one per seat). The downtime is charged to nobody: the deciding
  // seat's time runs from the start() before this.
  void restore(std::int64_t last_step, const std::vector<std::int64_t>& remaining);
  // Any step at `now`: per-decision and correspondence deadlines count from it.
  void stepped(std::int64_t now) { last_step_ = now; }
  // A turn passed at `now` (Fischer): the running seat is charged the time it spent, `decided`
  // (kNoSeat for a resignation or a time-out) credited the increment, `deciding` runs next.
  void turned(std::int64_t now, engine::Seat decided, engine::Seat deciding);

  std::int64_t last_step() const { return last_step_; }
  // A game clock's time per seat at its last turn (empty without one).
  const std::vector<std::int64_t>& remaining() const { return remaining_; }
  // When the deciding seat's time ends (Unix ms); 0: it does not.
  std::int64_t deadline() const;
  bool due(std::int64_t now) const;  // the deciding seat's time has ended by `now`
  // The clocks as `state` shows them at `now`, `deciding` the seat the game waits for (kNoSeat:
  // none); false when the room shows none. `shown` holds the times `c` points at.
  bool view(protocol::Clock& c, std::vector<std::int64_t>& shown, std::int64_t now,
            protocol::RoomStatus status, engine::Seat deciding) const;

 private:
  using Kind = protocol::TimeControl::Kind;
  std::int64_t ms(std::int64_t seconds) const { return seconds * second_.count(); }

  protocol::TimeControl control_;
  std::chrono::milliseconds second_;
  std::chrono::milliseconds day_;
  std::int64_t last_step_ = 0;
  std::vector<std::int64_t> remaining_;  // game clock: ms per seat at running_since_
  engine::Seat running_ = engine::kNoSeat;
  std::int64_t running_since_ = 0;  // the running seat's time runs from here
};

}  // namespace tanbo_server::server
