#pragma once
// What the bots know about a game: its registration's hooks (engine/core/registry.hpp,
// BotHooks): a one-ply evaluation of positions still playing, a way to copy one game over another
// of the same type without allocating (the search resets its scratch game from the root every
// iteration) and a playout horizon. A game without hooks gets the result-only evaluation and
// clone().
#include <array>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"

namespace tanbo_server::engine::bots {

inline constexpr int kMaxSeats = 8;
using Rewards = std::array<double, kMaxSeats>;

// Each seat's share of the other seats it beats by place, a shared place counting half (as M7
// rates 3-4 player games): 1 for a win, 0 for a loss, 1/2 for a 2-player draw.
void rewards_from_places(const std::vector<int>& places, Rewards& out);

inline constexpr double kWon = 1e6;

// Higher is better for `seat`. A finished game scores by place, far beyond any position still
// playing (+kWon for an outright win, -kWon for last place, 0 for a draw); one still playing, by
// the game's own evaluation.
class Evaluation {
 public:
  explicit Evaluation(const Game& game) : position_(game.info().bots.evaluate) {}
  double operator()(const Game& game, Seat seat) const {
    if (game.status() == Status::finished) return finished(game, seat);
    return position_ ? position_(game, seat) : 0;
  }

 private:
  static double finished(const Game& game, Seat seat);
  double (*position_)(const Game&, Seat);
};
inline Evaluation evaluation_for(const Game& game) { return Evaluation(game); }

// The playout depth mcts uses unless told otherwise: 0 (to the end) where random playouts judge
// well, a short horizon where they are long and aimless (steere-tanbo, tsoro; docs/bots.md).
inline std::uint32_t playout_depth_for(const Game& game) { return game.info().bots.playout_depth; }

// dst = src for two games of src's concrete type; null when the game gives no such copy.
using Reset = void (*)(Game& dst, const Game& src);
inline Reset reset_for(const Game& game) { return game.info().bots.reset; }

}  // namespace tanbo_server::engine::bots
