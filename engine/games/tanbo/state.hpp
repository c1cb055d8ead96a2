#pragma once
// The vocabulary of Tanbo (Musoka Studio) and the whole game state as one comparable value.
// Two rings of 5 paddies (one ring per seat, paddy 0..4 clockwise), a shared bag of rice and a
// snake pool, each seat's harvest, and the turn's bookkeeping (hand, cursor, replay guard).
#include <array>
#include <cstdint>

#include "engine/core/game.hpp"

namespace tanbo_server::engine::games::tanbo {

// Token kinds, in the order legal lists and JSON name them. Rice colours are 1..3.
enum Token : std::uint8_t { Snake, Yellow, Black, Red, Farmer, kTokens };
inline constexpr int kColours = 3;  // rice colours: Yellow, Black, Red
inline constexpr int kPaddies = 5;
inline constexpr int kSeats = 2;

// T1: the component counts.
inline constexpr int kSnakes = 20;
inline constexpr std::array<int, kColours> kRice = {15, 10, 5};
inline constexpr std::array<int, kColours> kPoints = {3, 4, 5};  // yellow, black, red
inline constexpr int kPaddyLimit = 10;                           // T6
inline constexpr int kMaxReplays = 64;                           // T5 guard

constexpr Token colour_token(int c) { return Token(Yellow + c); }
constexpr int next_paddy(int p) { return p == kPaddies - 1 ? 0 : p + 1; }
constexpr Seat opponent(Seat s) { return 1 - s; }

// Counts per token kind: a paddy, or the hand. n[Farmer] is 0 or 1.
struct Tokens {
  std::array<std::uint8_t, kTokens> n{};

  constexpr int snakes() const { return n[Snake]; }
  constexpr int rice() const { return n[Yellow] + n[Black] + n[Red]; }
  constexpr int total() const { return snakes() + rice() + n[Farmer]; }
  constexpr bool empty() const { return total() == 0; }
  friend bool operator==(const Tokens&, const Tokens&) = default;
};

// Rice by colour: the bag, a harvest, a choice of colours.
struct Rice {
  std::array<std::uint8_t, kColours> n{};

  constexpr int total() const { return n[0] + n[1] + n[2]; }
  constexpr int points() const { return kPoints[0] * n[0] + kPoints[1] * n[1] + kPoints[2] * n[2]; }
  friend bool operator==(const Rice&, const Rice&) = default;
};

using Ring = std::array<Tokens, kPaddies>;

struct Options {
  bool replay_cascade = true;               // T5
  bool forbid_noop_swap = false;            // T4 E
  bool farmer_counts_toward_limit = false;  // T6
  int stall_rounds = 60;                    // T8
  friend bool operator==(const Options&, const Options&) = default;
};

// What the state waits for. Over: the game is finished.
enum class Phase : std::uint8_t { place_farmer, sow, harvest, rest, swap, trim, over };

// T4: the action the counts of a paddy name.
enum class Letter : std::uint8_t { A, B, C, D, E };

// T7/T8/R3: why the game ended, in the order T7 reports them.
enum class Reason : std::uint8_t { none, points25, lead20, in_turn20, stalled, resigned };

// T5 guard: the mover's ring (Farmer included) and P, packed exactly (17 bits a paddy).
struct GuardKey {
  std::uint64_t lo = 0, hi = 0;
  friend bool operator==(const GuardKey&, const GuardKey&) = default;
};

struct State {
  std::array<Ring, kSeats> ring{};
  Rice bag{};
  std::uint8_t pool = 0;  // the snake pool ("centre of the table")
  std::array<Rice, kSeats> harvest{};

  Phase phase = Phase::place_farmer;
  Seat first = 0;
  Seat mover = 0;
  std::uint32_t turn = 0;         // turns begun, the current one included
  std::uint16_t quiet_turns = 0;  // T8: consecutive finished turns without a score change

  // The current turn.
  Tokens hand{};                             // T3: public
  std::uint8_t cursor = 0;                   // the paddy that receives the next token
  std::uint8_t last = 0;                     // P: the last paddy that received a token
  std::uint8_t to_move = 0;                  // rice the pending harvest / rest decision moves
  std::uint8_t trim_paddy = 0;               // the paddy the pending trim decision is about
  bool in_replay = false;                    // T5: inside a replay action phase
  std::uint8_t applied = 0;                  // T5: bit per Letter applied in this replay phase
  std::uint8_t replays = 0;                  // T5: replays made this turn
  std::uint16_t gained = 0;                  // T7: points harvested by the mover this turn
  bool score_changed = false;                // T8
  std::array<GuardKey, kMaxReplays> seen{};  // T5: keys of this turn's replays; unused ones zero

  Seat winner = kNoSeat;  // kNoSeat with reason Stalled: a draw
  Reason reason = Reason::none;

  int score(Seat s) const { return harvest[s].points(); }
  friend bool operator==(const State&, const State&) = default;
};

}  // namespace tanbo_server::engine::games::tanbo
