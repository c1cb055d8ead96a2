#include "engine/games/mancala_simple/mancala_simple.hpp"

#include "engine/games/mancala_simple/rules.hpp"

namespace tanbo_server::engine::games::mancala_simple {

// M3: any non-empty hole of the mover's own side, in hole order; branch-free on the counts.
void MancalaSimple::legal_actions(ActionList& out) const {
  out.clear();
  for (Block m = nonzero_bytes(s_.side(s_.to_move)); m; m &= m - 1)
    out.push_back(Action{std::uint32_t(std::countr_zero(m) / 8)});
}

void MancalaSimple::apply(Action a, Rng&, Events* events) { play(s_, int(a.code), events); }

void MancalaSimple::resign(Seat seat, Events* events) { mancala_simple::resign(s_, seat, events); }

Result MancalaSimple::result() const {
  Result r;
  r.places.assign(s_.place.begin(), s_.place.begin() + s_.players);
  r.reason = s_.reason == Reason::resigned ? "resigned" : "finished";
  return r;
}

std::string MancalaSimple::invariant_violation() const {
  return mancala_simple::invariant_violation(s_);
}

}  // namespace tanbo_server::engine::games::mancala_simple
