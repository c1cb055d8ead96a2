#pragma once
// Elo ratings (M7, docs/rules/mancala-simple.md): one rating per identity and game, starting at
// 1500, K = 32. Ratings are kept unrounded; only their display rounds.
#include <span>
#include <vector>

namespace tanbo_server::server::store {

inline constexpr double kInitialRating = 1500.0;
inline constexpr double kEloK = 32.0;

// The expected score of a player rated `a` against one rated `b`.
double elo_expected(double a, double b);

// New ratings after one game. places[i] is seat i's place (1 is best; equal places are shared),
// ratings[i] its rating before the game; both have the same size n >= 2.
// M7: every pair of seats is scored by their places (better 1, shared 0.5, worse 0) and each
// seat moves by K / (n - 1) times the sum over its pairs of (score - expected); with two seats
// this is plain Elo: win 1, draw 0.5, loss 0.
std::vector<double> elo_updates(std::span<const int> places, std::span<const double> ratings);

}  // namespace tanbo_server::server::store
