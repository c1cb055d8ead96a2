#include "engine/bots/evaluation.hpp"

#include <algorithm>

namespace tanbo_server::engine::bots {

void rewards_from_places(const std::vector<int>& places, Rewards& out) {
  const int n = std::min(int(places.size()), kMaxSeats);
  for (int s = 0; s < n; ++s) {
    double won = 0;
    for (int o = 0; o < n; ++o)
      if (o != s) won += places[s] < places[o] ? 1.0 : places[s] == places[o] ? 0.5 : 0.0;
    out[s] = n > 1 ? won / (n - 1) : 1.0;
  }
}

double Evaluation::finished(const Game& game, Seat seat) {
  Rewards r{};
  rewards_from_places(game.result().places, r);
  return (2 * r[seat] - 1) * kWon;
}

}  // namespace tanbo_server::engine::bots
