#pragma once
// Z3 sowing with relays, and Z5's detection of the endless ones. Only the mover's side changes
// while stones are sown, so a sowing is a function of one side alone.
#include "engine/games/tsoro/rules.hpp"

namespace tanbo_server::engine::games::tsoro {

enum class SowEnd : std::uint8_t { empty, head, endless };

struct Sowing {
  SowEnd end = SowEnd::empty;
  Hole last = 0;  // where the last stone landed
  int laps = 0;   // the start's lap and every relay after it
};

// Laps after which a sowing starts looking for a repeated state: most moves end in a few laps,
// so the common case never pays for the check.
inline constexpr int kQuietLaps = 48;

// Takes every stone of `from` and sows them one per hole from the next hole on, relaying from
// each occupied non-head hole a last stone lands in. Stops when a last stone lands in an empty
// hole or in an occupied head (the mover's choice, Z3), or when the state (side, next hole)
// repeats: an endless relay (Z5), which leaves `side` somewhere on its cycle.
Sowing sow(Side& side, const Rules& rules, Hole from);

// Z5: whether sowing from `from` ends. Most starts end in their first lap, which needs no copy:
// short of a full round, the last hole receives only the last stone.
inline bool sowing_ends(const Side& side, const Rules& rules, Hole from) {
  const int holes = rules.holes(), stones = side[from];
  if (stones < holes) {
    const Hole last = from + stones < holes ? from + stones : from + stones - holes;
    if (side[last] == 0 || contains(rules.head_set(), last)) return true;
  }
  Side copy = side;
  return sow(copy, rules, from).end != SowEnd::endless;
}

}  // namespace tanbo_server::engine::games::tsoro
