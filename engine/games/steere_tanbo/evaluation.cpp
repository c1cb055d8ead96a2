// What the bots read in a steere-tanbo position: stones (S5 is annihilation), roots (each is a
// group that may still be bounded away whole, S4) and mobility (the liberties are the legal
// moves, S3).
#include "engine/games/steere_tanbo/game.hpp"

namespace tanbo_server::engine::games::steere_tanbo {

double evaluate(const Game& g, Seat seat) {
  const auto& game = static_cast<const SteereTanbo&>(g);
  const auto& pos = game.position();
  const Color me = game.seat_of(black) == seat ? black : white;
  auto side = [&](Color c) {
    return pos.stones(c) + 4.0 * pos.roots_alive(c) + pos.moves(c).count();
  };
  return side(me) - side(~me);
}

}  // namespace tanbo_server::engine::games::steere_tanbo
