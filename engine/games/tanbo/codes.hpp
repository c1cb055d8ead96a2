#pragma once
// Action codes. Bits 28..31 name the decision; the rest is its payload:
//   place_farmer  paddy in bits 0..3
//   sow           token kind in bits 0..3
//   harvest/rest  yellow bits 0..7, black 8..15, red 16..23
//   swap          paddy i 0..3, token 4..7, paddy j 8..11, token 12..15 (i < j)
//   trim          paddy 0..3, snakes 4..9, yellow 10..15, black 16..21, red 22..27
#include <cstdint>

#include "engine/games/tanbo/state.hpp"

namespace tanbo_server::engine::games::tanbo {

enum class Kind : std::uint8_t { none, place_farmer, sow, harvest, rest, swap, trim };

constexpr Kind kind_of(Action a) { return Kind(a.code >> 28); }
constexpr Action make(Kind k, std::uint32_t payload) { return {std::uint32_t(k) << 28 | payload}; }

constexpr Action place_farmer_action(int paddy) { return make(Kind::place_farmer, paddy); }
constexpr Action sow_action(Token t) { return make(Kind::sow, t); }
constexpr Action rice_action(Kind k, int y, int b, int r) {
  return make(k, std::uint32_t(y) | std::uint32_t(b) << 8 | std::uint32_t(r) << 16);
}
constexpr Action swap_action(int i, Token a, int j, Token b) {
  return make(Kind::swap, std::uint32_t(i) | std::uint32_t(a) << 4 | std::uint32_t(j) << 8 |
                              std::uint32_t(b) << 12);
}
constexpr Action trim_action(int paddy, int s, int y, int b, int r) {
  return make(Kind::trim, std::uint32_t(paddy) | std::uint32_t(s) << 4 | std::uint32_t(y) << 10 |
                              std::uint32_t(b) << 16 | std::uint32_t(r) << 22);
}

constexpr int field(Action a, int shift, int bits) {
  return int(a.code >> shift & ((1u << bits) - 1));
}
constexpr Rice rice_of(Action a) {
  return Rice{
      {std::uint8_t(field(a, 0, 8)), std::uint8_t(field(a, 8, 8)), std::uint8_t(field(a, 16, 8))}};
}
// A trim as the tokens it removes (n[Farmer] is always 0).
constexpr Tokens trim_of(Action a) {
  return Tokens{{std::uint8_t(field(a, 4, 6)), std::uint8_t(field(a, 10, 6)),
                 std::uint8_t(field(a, 16, 6)), std::uint8_t(field(a, 22, 6)), 0}};
}

}  // namespace tanbo_server::engine::games::tanbo
