#include "engine/bots/evaluation.hpp"

#include <algorithm>

#include "engine/games/mancala_simple/mancala_simple.hpp"
#include "engine/games/steere_tanbo/game.hpp"
#include "engine/games/tanbo/game.hpp"
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo::engine::bots {
namespace {

using games::mancala_simple::MancalaSimple;
using games::steere_tanbo::SteereTanbo;
using games::tanbo::TanboGame;
using tsoro::Tsoro;

// A finished game by place: +kWon for an outright win, -kWon for last place, 0 for a draw.
double terminal(const Game& g, Seat seat) {
  Rewards r{};
  rewards_from_places(g.result().places, r);
  return (2 * r[seat] - 1) * kWon;
}

double unknown_game(const Game& g, Seat seat) {
  return g.status() == Status::finished ? terminal(g, seat) : 0;
}

// tanbo: the points harvested (T7 decides on them alone).
double tanbo_score(const Game& g, Seat seat) {
  if (g.status() == Status::finished) return terminal(g, seat);
  const auto& s = static_cast<const TanboGame&>(g).state();
  return s.score(seat) - s.score(games::tanbo::opponent(seat));
}

// steere-tanbo: stones (S5 is annihilation), roots (each is a group that may still be bounded
// away whole, S4) and mobility (the liberties are the legal moves, S3).
double steere_material(const Game& g, Seat seat) {
  if (g.status() == Status::finished) return terminal(g, seat);
  using namespace games::steere_tanbo;
  const auto& game = static_cast<const SteereTanbo&>(g);
  const auto& pos = game.position();
  const Color me = game.seat_of(black) == seat ? black : white;
  auto side = [&](Color c) {
    return pos.stones(c) + 4.0 * pos.roots_alive(c) + pos.moves(c).count();
  };
  return side(me) - side(~me);
}

// mancala-simple: M4 ranks by emptying one's holes first, and a hole is emptied only by playing
// it, so the count that matters is of holes still holding stones: one's own against the others'
// average. Stone counts mislead here: a one-ply bot that keeps its own stones fewest, or its store
// fullest, loses three games in four to random play (docs/bots.md).
int holes_in_use(const games::mancala_simple::State& s, Seat seat) {
  int n = 0;
  for (int h = 0; h < s.holes; ++h) n += s.hole(seat, h) > 0;
  return n;
}

double mancala_holes(const Game& g, Seat seat) {
  if (g.status() == Status::finished) return terminal(g, seat);
  using namespace games::mancala_simple;
  const State& s = static_cast<const MancalaSimple&>(g).state();
  double others = 0;
  int open = 0;
  for (Seat o = 0; o < s.players; ++o)
    if (o != seat && s.in_circuit(o)) others += holes_in_use(s, o), ++open;
  return (open ? others / open : 0) - holes_in_use(s, seat);
}

// tsoro: stones on one's own rows; sowing never crosses sides, so the difference moves exactly
// with the captures (Z6), and it is what Z8 counts.
double tsoro_stones(const Game& g, Seat seat) {
  if (g.status() == Status::finished) return terminal(g, seat);
  const auto& t = static_cast<const Tsoro&>(g);
  return t.stones_on_side(seat) - t.stones_on_side(1 - seat);
}

template <class G>
void reset_as(Game& dst, const Game& src) {
  static_cast<G&>(dst) = static_cast<const G&>(src);
}

}  // namespace

void rewards_from_places(const std::vector<int>& places, Rewards& out) {
  const int n = std::min(int(places.size()), kMaxSeats);
  for (int s = 0; s < n; ++s) {
    double won = 0;
    for (int o = 0; o < n; ++o)
      if (o != s) won += places[s] < places[o] ? 1.0 : places[s] == places[o] ? 0.5 : 0.0;
    out[s] = n > 1 ? won / (n - 1) : 1.0;
  }
}

Evaluation evaluation_for(const Game& game) {
  if (dynamic_cast<const TanboGame*>(&game)) return tanbo_score;
  if (dynamic_cast<const SteereTanbo*>(&game)) return steere_material;
  if (dynamic_cast<const MancalaSimple*>(&game)) return mancala_holes;
  if (dynamic_cast<const Tsoro*>(&game)) return tsoro_stones;
  return unknown_game;
}

std::uint32_t playout_depth_for(const Game& game) {
  if (dynamic_cast<const SteereTanbo*>(&game) || dynamic_cast<const Tsoro*>(&game)) return 16;
  return 0;
}

Reset reset_for(const Game& game) {
  if (dynamic_cast<const TanboGame*>(&game)) return reset_as<TanboGame>;
  if (dynamic_cast<const SteereTanbo*>(&game)) return reset_as<SteereTanbo>;
  if (dynamic_cast<const MancalaSimple*>(&game)) return reset_as<MancalaSimple>;
  if (dynamic_cast<const Tsoro*>(&game)) return reset_as<Tsoro>;
  return nullptr;
}

}  // namespace tanbo::engine::bots
