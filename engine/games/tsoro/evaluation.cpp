// What the bots read in a tsoro position: stones on one's own rows. Sowing never crosses sides,
// so the difference moves exactly with the captures (Z6), and it is what Z8 counts.
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo_server::engine::games::tsoro {

double evaluate(const Game& g, Seat seat) {
  const auto& t = static_cast<const Tsoro&>(g);
  return t.stones_on_side(seat) - t.stones_on_side(1 - seat);
}

}  // namespace tanbo_server::engine::games::tsoro
