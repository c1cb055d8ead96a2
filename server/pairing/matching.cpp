#include "server/pairing/matching.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>

namespace tanbo_server::server::pairing {
namespace {

// A pair may span this many places of the rating order: wide enough to dodge a repeat pairing
// or a range, narrow enough that a wave of thousands stays linear.
constexpr int kWindow = 4;
// Every pair is worth more than any cost difference: first as many pairs as possible, then the
// cheapest of those.
constexpr double kPairValue = 1e7;

double bonus(const Candidate& c, const WaveParams& p) {
  return std::min(p.bonus_max, c.waited_s * p.bonus_per_second);
}

bool may_meet(const Candidate& a, const Candidate& b, bool ranked, const WaveParams& p) {
  if (a.identity == b.identity) return false;
  if (!ranked) return true;
  const double diff = std::abs(a.rating - b.rating);
  return diff <= rating_range(a.waited_s, p) && diff <= rating_range(b.waited_s, p);
}

double pair_cost(const Candidate& a, const Candidate& b, const WaveParams& p) {
  double cost = std::abs(a.rating - b.rating) - bonus(a, p) - bonus(b, p);
  if ((!a.last_opponent.empty() && a.last_opponent == b.identity) ||
      (!b.last_opponent.empty() && b.last_opponent == a.identity))
    cost += p.repeat_penalty;
  return cost - kPairValue;
}

std::vector<std::size_t> by_rating(const std::vector<Candidate>& s) {
  std::vector<std::size_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  // Ties: the longer wait first, so that the one left over is the one who came last.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return s[a].rating != s[b].rating ? s[a].rating < s[b].rating : s[a].waited_s > s[b].waited_s;
  });
  return order;
}

// Exact over every matching whose pairs span at most kWindow places of the rating order: a
// dynamic programme over the position and which of the next kWindow are already taken.
std::vector<std::vector<std::size_t>> pairs(const std::vector<Candidate>& s, bool ranked,
                                            const WaveParams& p) {
  const auto order = by_rating(s);
  const std::size_t n = order.size();
  constexpr unsigned kMasks = 1u << (kWindow + 1);
  constexpr double kNone = std::numeric_limits<double>::infinity();
  // best[i][mask]: the least cost of deciding positions i.. given `mask` (bit d: i+d taken).
  std::vector<std::array<double, kMasks>> best(n + 1);
  std::vector<std::array<int, kMasks>> choice(n + 1);  // 0: leave i, d: pair i with i+d
  for (auto& b : best) b.fill(kNone);
  best[n].fill(0);
  for (std::size_t i = n; i-- > 0;) {
    for (unsigned mask = 0; mask < kMasks; ++mask) {
      if (mask & 1) {
        best[i][mask] = best[i + 1][mask >> 1];
        choice[i][mask] = -1;
        continue;
      }
      best[i][mask] = best[i + 1][mask >> 1];  // i waits
      choice[i][mask] = 0;
      for (int d = 1; d <= kWindow && i + std::size_t(d) < n; ++d) {
        if (mask >> d & 1) continue;
        const Candidate& a = s[order[i]];
        const Candidate& b = s[order[i + std::size_t(d)]];
        if (!may_meet(a, b, ranked, p)) continue;
        double c = pair_cost(a, b, p) + best[i + 1][(mask | 1u << d) >> 1];
        if (c < best[i][mask]) best[i][mask] = c, choice[i][mask] = d;
      }
    }
  }
  std::vector<std::vector<std::size_t>> out;
  unsigned mask = 0;
  for (std::size_t i = 0; i < n; ++i) {
    int d = choice[i][mask];
    if (d > 0) {
      out.push_back({order[i], order[i + std::size_t(d)]});
      mask |= 1u << d;
    }
    mask >>= 1;
  }
  return out;
}

// Three and four: consecutive ratings, lowest first; a ranked group must fit every member's range.
std::vector<std::vector<std::size_t>> groups(const std::vector<Candidate>& s, int players,
                                             bool ranked, const WaveParams& p) {
  const auto order = by_rating(s);
  const std::size_t k = std::size_t(players);
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t i = 0; i + k <= order.size();) {
    bool fits = true;
    const double spread = s[order[i + k - 1]].rating - s[order[i]].rating;
    for (std::size_t j = i; j < i + k && fits; ++j)
      fits = !ranked || spread <= rating_range(s[order[j]].waited_s, p);
    if (!fits) {
      ++i;
      continue;
    }
    out.emplace_back(order.begin() + std::ptrdiff_t(i), order.begin() + std::ptrdiff_t(i + k));
    i += k;
  }
  return out;
}

}  // namespace

double rating_range(double waited_s, const WaveParams& p) {
  return std::min(p.range_max, p.range_base + waited_s * p.range_per_second);
}

std::vector<std::vector<std::size_t>> pair_wave(const std::vector<Candidate>& seekers, int players,
                                                bool ranked, const WaveParams& params) {
  if (players == 2) return pairs(seekers, ranked, params);
  return groups(seekers, players, ranked, params);
}

}  // namespace tanbo_server::server::pairing
