#pragma once
// What the bots know about particular games: a one-ply evaluation per game id, read from the
// concrete state through its accessors, and a way to copy one game over another of the same type
// without allocating (the search resets its scratch game from the root every iteration). A game
// the bots do not know gets the terminal-only evaluation and clone().
#include <array>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo::engine::bots {

inline constexpr int kMaxSeats = 8;
using Rewards = std::array<double, kMaxSeats>;

// Each seat's share of the other seats it beats by place, a shared place counting half (as M7
// rates 3-4 player games): 1 for a win, 0 for a loss, 1/2 for a 2-player draw.
void rewards_from_places(const std::vector<int>& places, Rewards& out);

// Higher is better for `seat`. A finished game scores far beyond any position still playing.
using Evaluation = double (*)(const Game& game, Seat seat);
Evaluation evaluation_for(const Game& game);
inline constexpr double kWon = 1e6;

// The playout depth mcts uses unless told otherwise: 0 (to the end) where random playouts judge
// well, a short horizon where they are long and aimless (steere-tanbo, tsoro; docs/bots.md).
std::uint32_t playout_depth_for(const Game& game);

// dst = src for two games of src's concrete type; null when the type is not known here.
using Reset = void (*)(Game& dst, const Game& src);
Reset reset_for(const Game& game);

}  // namespace tanbo::engine::bots
