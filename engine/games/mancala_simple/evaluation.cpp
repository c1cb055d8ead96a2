// What the bots read in a mancala-simple position. M4 ranks by emptying one's holes first, and a
// hole is emptied only by playing it, so the count that matters is of holes still holding
// stones: one's own against the others' average. Stone counts mislead here: a one-ply bot that
// keeps its own stones fewest, or its store fullest, loses three games in four to random play
// (docs/bots.md).
#include "engine/games/mancala_simple/mancala_simple.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

int holes_in_use(const State& s, Seat seat) {
  int n = 0;
  for (int h = 0; h < s.holes; ++h) n += s.hole(seat, h) > 0;
  return n;
}

}  // namespace

double evaluate(const Game& g, Seat seat) {
  const State& s = static_cast<const MancalaSimple&>(g).state();
  double others = 0;
  int open = 0;
  for (Seat o = 0; o < s.players; ++o)
    if (o != seat && s.in_circuit(o)) others += holes_in_use(s, o), ++open;
  return (open ? others / open : 0) - holes_in_use(s, seat);
}

}  // namespace tanbo_server::engine::games::mancala_simple
