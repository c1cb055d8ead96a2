#pragma once
// One pairing wave of one pool (docs/protocol.md, "Play now"): who plays whom among the seekers
// waiting now. Pure: no clock, no I/O, so a wave is a function of its input and tests pin it.
//
// Two players: a maximum matching of least total cost, where a pair costs its rating difference,
// less a bonus for the time each has waited, plus a large penalty when the two just played each
// other. Three and four: groups of consecutive ratings. A ranked pool pairs two seekers only
// within the rating range of each, which widens with waiting.
#include <cstddef>
#include <string>
#include <vector>

namespace tanbo_server::server::pairing {

struct WaveParams {
  double bonus_per_second = 10;  // a seeker's bonus grows with waiting...
  double bonus_max = 300;        // ...up to this many rating points
  double repeat_penalty = 1000;  // the pair that just played each other
  double range_base = 100;       // ranked: the rating difference accepted at once...
  double range_per_second = 25;  // ...widened by this every second waited...
  double range_max = 1000;       // ...up to this
};

struct Candidate {
  double rating = 1500;
  double waited_s = 0;
  std::string identity;
  std::string last_opponent;  // the identity this one was last paired with, if any
};

// The groups of `players` seekers to seat together, as indices into `seekers`; the others wait
// for the next wave.
std::vector<std::vector<std::size_t>> pair_wave(const std::vector<Candidate>& seekers, int players,
                                                bool ranked, const WaveParams& params = {});

// A ranked seeker's accepted rating difference after waiting `waited_s`.
double rating_range(double waited_s, const WaveParams& params = {});

}  // namespace tanbo_server::server::pairing
