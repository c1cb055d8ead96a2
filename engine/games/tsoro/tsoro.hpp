#pragma once
// Tsoro (rulings Z1-Z8): the Shona four-row mancala with heads, relay sowing and bonus
// captures. docs/rules/tsoro.md says how the engine reads the rules and names every hole.
//
// A turn: the mover picks a start ("sow"), the stones relay on until a last stone lands in an
// empty hole or an occupied own head ("head": relay or stop); a move ending in an empty inner
// hole may capture, then take bonus holes one decision at a time ("bonus").
//
// Action codes: kind << 8 | hole. sow: the start hole of the mover's side; head: stop or relay;
// bonus: a hole of the opponent's side, or stop (bonus_optional). Holes in sowing order
// (rules.hpp).
#include <array>
#include <memory>
#include <string_view>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"
#include "engine/games/tsoro/rules.hpp"

namespace tanbo_server::engine::games::tsoro {

const GameInfo& info();
// A position still playing, seen from `seat`, for the bots (BotHooks::evaluate).
double evaluate(const Game& g, Seat seat);

enum class Kind : std::uint8_t { sow = 0, head = 1, bonus = 2 };
inline constexpr Action sow_action(Hole h) { return {std::uint32_t(h)}; }
inline constexpr Action kHeadStop{0x100};
inline constexpr Action kHeadRelay{0x101};
inline constexpr Action bonus_action(Hole h) { return {0x200u | std::uint32_t(h)}; }
inline constexpr Action kBonusStop{0x2ff};
constexpr Kind kind_of(Action a) { return Kind(a.code >> 8); }
constexpr Hole hole_of(Action a) { return Hole(a.code & 0xff); }

// Z8: a turn-start position can only recur before the next capture (captures only remove
// stones), and 200 turns without one end the game; so 201 positions are all that ever matter.
inline constexpr int kNoCaptureTurns = 200;
inline constexpr int kHistory = kNoCaptureTurns + 1;

class Tsoro final : public Game {
 public:
  enum class Phase : std::uint8_t { sow, head, bonus, over };

  // Z1, Z2: the standard set-up.
  Tsoro(const Rules& rules, Seat first);
  // Any position with `to_move` starting a turn (tests, analysis); Z7 and Z8 apply at once.
  Tsoro(const Rules& rules, const Board& board, Seat to_move);

  std::unique_ptr<Game> clone() const override { return std::make_unique<Tsoro>(*this); }
  const GameInfo& info() const override { return tsoro::info(); }
  int players() const override { return 2; }
  Status status() const override {
    return phase_ == Phase::over ? Status::finished : Status::playing;
  }
  Pending pending() const override;
  void legal_actions(ActionList& out) const override;
  void apply(Action a, Rng& rng, Events* events) override;
  void resign(Seat seat, Events* events) override;
  Result result() const override;
  Json action_json(Action a) const override;
  std::optional<Action> parse_action(const Json& j) const override;
  Json state_json() const override;
  void write_state(JsonSink& out) const override;
  void write_action(Action a, JsonSink& out) const override;
  std::string invariant_violation() const override;

  const Rules& rules() const { return rules_; }
  const Board& board() const { return board_; }
  Seat mover() const { return mover_; }
  Phase phase() const { return phase_; }
  int captured(Seat s) const { return captured_[s]; }
  int stones_on_side(Seat s) const;
  // sow: whether the legal starts are singleton moves (Z4); head: the head waiting for a choice.
  bool singletons() const { return singletons_; }
  Hole head() const { return head_; }
  int turn() const { return turn_; }
  int turns_without_capture() const { return since_capture_; }
  // How often the current turn-start position has occurred since the last capture (Z8).
  int occurrences() const;

  friend bool operator==(const Tsoro& a, const Tsoro& b);

 private:
  void start_turn(Events* events);
  void compute_starts();
  void sow_from(Hole from, Events* events);
  void move_singleton(Hole from, Events* events);
  void after_move(Hole last, Events* events);
  void capture(Hole last, Events* events);
  void next_bonus(Events* events);
  void take(Hole h, Events* events);
  void end_turn(Events* events);
  void finish(Seat winner, std::string_view reason);
  void finish_by_count(std::string_view reason);
  bool record_position();
  HoleSet bonus_holes() const;

  Rules rules_;
  Board board_{};
  std::array<int, 2> captured_{};
  int total_ = 0;  // stones at the start: board + captured always add up to it
  Seat mover_ = 0;
  Phase phase_ = Phase::sow;
  HoleSet starts_ = 0;       // sow: the legal start holes (Z3-Z5)
  bool singletons_ = false;  // sow: starts_ are singleton moves (Z4)
  Hole head_ = 0;            // head: the occupied head the last stone landed in
  bool relay_ok_ = false;    // head: relaying from it ends (Z5)
  int bonus_left_ = 0;       // bonus: picks still to make (Z6)
  bool captured_now_ = false;
  int turn_ = 0;
  int since_capture_ = 0;
  Seat winner_ = kNoSeat;  // kNoSeat once over: a draw
  std::string_view reason_;
  // Z8: turn-start positions since the last capture; entry i has seat (first of them + i) to move.
  int positions_ = 0;
  std::array<std::uint64_t, kHistory> hashes_{};
  std::array<Board, kHistory> boards_{};
};

}  // namespace tanbo_server::engine::games::tsoro
