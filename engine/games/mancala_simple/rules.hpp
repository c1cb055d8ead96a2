#pragma once
// The rules of mancala-simple on a State, in the order of the rulebook (M1-M5). Every function
// takes an event sink that may be null; events are built only when it is not.
#include <string>

#include "engine/games/mancala_simple/state.hpp"

namespace tanbo_server::engine::games::mancala_simple {

// M1: 6 holes, or 7 with 2 players, or 4 with 3-4 players; any other request falls back to 6.
int effective_holes(int players, int requested);
// M1: every hole of every seat holds `stones`, stores empty, every seat in the circuit.
State setup(int players, int holes, int stones, bool full_ranking, Seat first);

// M2: the next seat still in the circuit, counter-clockwise (seat order).
Seat next_in_circuit(const State& s, Seat from);
// M2: the pit after `pit` in the circuit: a seat's holes left to right, its store, the next seat.
int next_pit(const State& s, int pit);
int side_stones(const State& s, Seat seat);

// M3: the mover sows from their own non-empty hole; finishing, extra moves and the turn follow.
// Precondition: the game is not over and the hole is non-empty.
void play(State& s, int hole, Events* events);
// M5: a seat that has already left (or a game that is over) is left unchanged.
void resign(State& s, Seat seat, Events* events);

// Empty when conservation, bounds and the ranking invariants hold; else what broke.
std::string invariant_violation(const State& s);

}  // namespace tanbo_server::engine::games::mancala_simple
