#pragma once
// Positions for the mancala-simple tests, written the way the rulebook draws them.
#include <initializer_list>

#include "engine/core/events.hpp"
#include "engine/core/rng.hpp"
#include "engine/games/mancala_simple/mancala_simple.hpp"
#include "engine/games/mancala_simple/rules.hpp"

namespace tanbo_server::engine::games::mancala_simple::test {

// A position where seat t's holes hold sides[t] (a seat listed with no holes has an empty side),
// the stores whatever conserves the stones: the difference is put in the mover's store.
inline State position(int players, int holes,
                      std::initializer_list<std::initializer_list<int>> sides, Seat to_move = 0,
                      bool full_ranking = true, int stones = 4) {
  State s = setup(players, holes, stones, full_ranking, to_move);
  s.pits = {};
  int on_board = 0;
  Seat t = 0;
  for (auto side : sides) {
    int h = 0;
    for (int n : side) on_board += s.pits[s.pit(t, h++)] = std::uint8_t(n);
    ++t;
  }
  s.pits[s.store_pit(to_move)] = std::uint8_t(s.total_stones() - on_board);
  return s;
}

// The legal holes of the pending decision, as hole indices.
inline std::vector<int> legal_holes(const Game& g) {
  ActionList legal;
  g.legal_actions(legal);
  std::vector<int> out;
  for (Action a : legal) out.push_back(int(a.code));
  return out;
}

// Plays the mover's hole h; the game draws nothing, so any Rng will do.
inline void sow(MancalaSimple& g, int h, Events* events = nullptr) {
  FastRng unused(0);
  g.apply(Action{std::uint32_t(h)}, unused, events);
}

}  // namespace tanbo_server::engine::games::mancala_simple::test
