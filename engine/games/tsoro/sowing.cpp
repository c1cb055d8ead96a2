#include "engine/games/tsoro/sowing.hpp"

namespace tanbo_server::engine::games::tsoro {

namespace {

// One lap: empties h and sows its stones from h+1 on, the origin included when they go round
// (Z3). Returns where the last stone landed.
inline Hole lap(Side& side, int holes, Hole h) {
  int stones = side[h];
  side[h] = 0;
  if (stones >= holes) {
    const int rounds = stones / holes;
    for (int i = 0; i < holes; ++i) side[i] = std::uint8_t(side[i] + rounds);
    stones -= rounds * holes;
  }
  if (h + stones < holes) {
    for (int i = h + 1; i <= h + stones; ++i) ++side[i];
    return h + stones;
  }
  const Hole last = h + stones - holes;
  for (int i = h + 1; i < holes; ++i) ++side[i];
  for (int i = 0; i <= last; ++i) ++side[i];
  return last;
}

}  // namespace

Sowing sow(Side& side, const Rules& rules, Hole from) {
  const int holes = rules.holes();
  const HoleSet heads = rules.head_set();
  // Z5: Brent's cycle finding over (side, next hole): one saved state, one compare per lap.
  Side saved{};
  Hole saved_at = -1;
  int power = 1, since_saved = 0;
  Hole h = from;
  for (int laps = 1;; ++laps) {
    const Hole last = lap(side, holes, h);
    // The last stone alone in its hole: the hole was empty (Z3).
    if (side[last] == 1) return {SowEnd::empty, last, laps};
    if (contains(heads, last)) return {SowEnd::head, last, laps};
    h = last;
    if (laps < kQuietLaps) continue;
    if (h == saved_at && side == saved) return {SowEnd::endless, h, laps};
    if (++since_saved == power) {
      saved = side;
      saved_at = h;
      power *= 2;
      since_saved = 0;
    }
  }
}

}  // namespace tanbo_server::engine::games::tsoro
