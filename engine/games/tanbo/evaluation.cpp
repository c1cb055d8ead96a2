// What the bots read in a tanbo position: the points harvested, since T7 decides on them alone.
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {

double evaluate(const Game& g, Seat seat) {
  const auto& s = static_cast<const TanboGame&>(g).state();
  return s.score(seat) - s.score(opponent(seat));
}

}  // namespace tanbo_server::engine::games::tanbo
