#pragma once
// Tsoro's vocabulary: the rules of a room, one player's two rows in sowing order, and the few
// index helpers every other file speaks in.
//
// A player's side is numbered in sowing order (Z3): holes 0..N-1 are the outer row from the
// owner's left to right, holes N..2N-1 the inner row from the owner's right to left, so sowing is
// always "next index, wrapping". A column c counted from one player's left faces the opponent's
// column N-1-c counted from theirs.
#include <array>
#include <cstdint>

namespace tanbo_server::engine::games::tsoro {

inline constexpr int kMaxColumns = 21;
inline constexpr int kMaxHoles = 2 * kMaxColumns;  // per side

using Hole = int;  // an index in sowing order, 0..2N-1
using Side = std::array<std::uint8_t, kMaxHoles>;
using Board = std::array<Side, 2>;  // by seat
using HoleSet = std::uint64_t;      // one bit per hole of a side

enum class Heads : std::uint8_t { none, one, two };

struct Rules {
  int columns = 21;
  Heads heads = Heads::two;
  int bonus_holes = 2;
  bool bonus_optional = false;
  friend bool operator==(const Rules&, const Rules&) = default;

  constexpr int holes() const { return 2 * columns; }
  // Z2: the rightmost one or two outer holes, as the owner sees them.
  constexpr HoleSet head_set() const {
    const HoleSet right = HoleSet(1) << (columns - 1);
    return heads == Heads::two ? right | right >> 1 : heads == Heads::one ? right : 0;
  }
};

constexpr bool is_inner(Hole h, int columns) { return h >= columns; }
// The column counted from the owner's left.
constexpr int column_of(Hole h, int columns) { return h < columns ? h : 2 * columns - 1 - h; }
constexpr Hole outer_hole(int col) { return col; }
constexpr Hole inner_hole(int col, int columns) { return 2 * columns - 1 - col; }
// The column a player's column faces on the other side.
constexpr int facing(int col, int columns) { return columns - 1 - col; }

constexpr bool contains(HoleSet set, Hole h) { return (set >> h) & 1; }

}  // namespace tanbo_server::engine::games::tsoro
