#include "server/store/elo.hpp"

#include <cassert>
#include <cmath>

namespace tanbo_server::server::store {

double elo_expected(double a, double b) { return 1.0 / (1.0 + std::pow(10.0, (b - a) / 400.0)); }

std::vector<double> elo_updates(std::span<const int> places, std::span<const double> ratings) {
  assert(places.size() == ratings.size() && places.size() >= 2);
  const std::size_t n = places.size();
  // M7: K divided by n - 1, so a game moves a rating about as much whatever the player count.
  const double k = kEloK / double(n - 1);
  std::vector<double> out(ratings.begin(), ratings.end());
  for (std::size_t i = 0; i < n; ++i) {
    double delta = 0;
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j) continue;
      // M7: a shared place counts half.
      double score = places[i] < places[j] ? 1.0 : places[i] == places[j] ? 0.5 : 0.0;
      delta += score - elo_expected(ratings[i], ratings[j]);
    }
    out[i] = ratings[i] + k * delta;
  }
  return out;
}

}  // namespace tanbo_server::server::store
