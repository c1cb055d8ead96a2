#pragma once
// The position of a mancala-simple game as a small value: every pit of every seat in one flat
// array, who moves, who is still in the circuit, and the places given so far. Copying it is the
// whole cost of cloning a game.
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>

#include "engine/core/game.hpp"

namespace tanbo_server::engine::games::mancala_simple {

inline constexpr int kMaxPlayers = 4;
inline constexpr int kMaxHoles = 7;
// Pits of seat s live at s * kStride + p: p < holes is a hole counted from the seat's left,
// p == holes is the seat's store; the slots past the store stay 0.
inline constexpr int kStride = 8;
inline constexpr int kPits = kMaxPlayers * kStride;

// A seat's block of pits read as one little-endian word (byte p = pit p), so that sowing into a
// run of pits is one addition and "is this side empty" is one mask: counts never exceed 96, so
// no byte carries into the next.
using Block = std::uint64_t;
static_assert(std::endian::native == std::endian::little, "Block byte p must be pit p");
// One in each of the first n bytes, 0 <= n <= kStride; shifted by 8 * from, pits [from, from + n).
inline constexpr std::array<Block, kStride + 1> kRuns = {
    0x0ULL,          0x01ULL,           0x0101ULL,           0x010101ULL,           0x01010101ULL,
    0x0101010101ULL, 0x010101010101ULL, 0x01010101010101ULL, 0x0101010101010101ULL,
};
// 0x80 in each byte of b that is not 0 (exact: no borrow crosses bytes).
constexpr Block nonzero_bytes(Block b) {
  constexpr Block low7 = 0x7f7f7f7f7f7f7f7fULL;
  return (((b & low7) + low7) | b) & ~low7;
}

// How a seat got its place; `open` while it has none.
enum class Placed : std::uint8_t { open, finished, resigned, last_left, stones_left };

// How a seat got its place, as the state and the events name it ("open": no place yet).
constexpr const char* placed_name(Placed p) {
  constexpr const char* names[] = {"open", "finished", "resigned", "last_left", "stones_left"};
  return names[static_cast<int>(p)];
}
// Why the game ended; `none` while it is being played.
enum class Reason : std::uint8_t { none, finished, resigned };

struct State {
  alignas(8) std::array<std::uint8_t, kPits> pits{};
  std::uint8_t players = 2;
  std::uint8_t holes = 6;   // effective, after the M1 fall-back
  std::uint8_t stones = 4;  // per hole at the start
  bool full_ranking = true;
  std::uint8_t to_move = 0;
  std::uint8_t circuit = 0;                       // bit s: seat s still sows and is sown into
  std::array<std::uint8_t, kMaxPlayers> place{};  // 0 while open
  std::array<Placed, kMaxPlayers> placed{};
  Reason reason = Reason::none;

  constexpr int pit(Seat s, int p) const { return s * kStride + p; }
  constexpr int store_pit(Seat s) const { return s * kStride + holes; }
  constexpr bool is_store(int pit) const { return (pit & (kStride - 1)) == holes; }
  constexpr Seat seat_of(int pit) const { return pit / kStride; }
  constexpr std::uint8_t hole(Seat s, int h) const { return pits[s * kStride + h]; }
  constexpr std::uint8_t store(Seat s) const { return pits[s * kStride + holes]; }
  constexpr bool in_circuit(Seat s) const { return circuit >> s & 1; }
  constexpr bool over() const { return reason != Reason::none; }
  // Spelled out: std::popcount is a library call on the baseline x86-64 target.
  constexpr int seats_in_circuit() const {
    return (circuit & 1) + (circuit >> 1 & 1) + (circuit >> 2 & 1) + (circuit >> 3 & 1);
  }

  Block block(Seat s) const {
    Block b;
    std::memcpy(&b, &pits[s * kStride], sizeof b);
    return b;
  }
  void set_block(Seat s, Block b) { std::memcpy(&pits[s * kStride], &b, sizeof b); }
  // The mover's holes (not the store) as a word.
  Block side(Seat s) const { return block(s) & ((Block(1) << 8 * holes) - 1); }
  constexpr int total_stones() const { return players * holes * stones; }

  friend bool operator==(const State&, const State&) = default;
};

}  // namespace tanbo_server::engine::games::mancala_simple
