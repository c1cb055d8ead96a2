// Properties over many random games of every player count and option: stones are conserved,
// every game ends, the ranking is complete and consistent, and the record replays to the same
// final state (engine::replay, which re-derives the forced moves, R4).
#include <set>

#include <catch2/catch.hpp>

#include "engine/core/match.hpp"
#include "tests/engine/games/mancala_simple/fixtures.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

constexpr int kGames = 10'000;
// Replaying goes through the JSON of every action, which the sanitizer build makes slow: there it
// replays every 10th game and keeps every other property on all of them.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kReplayEvery = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr int kReplayEvery = 10;
#else
constexpr int kReplayEvery = 1;
#endif
#else
constexpr int kReplayEvery = 1;
#endif
constexpr int kMaxDecisions = 5'000;

struct Played {
  Record record;
  std::unique_ptr<Game> game;
  std::vector<Seat> resigned;  // in the order their resignations took effect
  int decisions = 0;
};

// One random game: random options and first seat, random legal sowings, now and then a random
// seat resigns (possibly one that has already left). Forced moves are not recorded (R4).
Played play_random(int players, std::uint64_t n, std::string& broke) {
  FastRng pick(std::uint64_t(players) << 32 | n);
  Played p;
  p.record.game = "mancala-simple";
  p.record.players = players;
  p.record.options = {{"holes", std::array{4, 6, 7}[pick.below(3)]},
                      {"stones", 3 + int(pick.below(2))},
                      {"full_ranking", pick.below(2) == 1},
                      {"first", int(pick.below(std::uint32_t(players)))}};
  p.record.seed =
      seed_from_text("mancala-properties:" + std::to_string(players) + ":" + std::to_string(n));
  Drbg rng(p.record.seed);
  Created created = create_game(p.record.game, p.record.options, nullptr, players, rng);
  if (!created.game) return broke = created.problems.front().message, std::move(p);
  p.game = std::move(created.game);
  Game& g = *p.game;
  ActionList legal;
  while (g.status() != Status::finished && p.decisions < kMaxDecisions) {
    g.legal_actions(legal);
    if (legal.empty()) return broke = "no legal action", std::move(p);
    if (legal.size() > 1 && pick.below(150) == 0) {
      const Seat seat = Seat(pick.below(std::uint32_t(players)));
      const bool seated = static_cast<const MancalaSimple&>(g).state().place[seat] == 0;
      g.resign(seat, nullptr);
      if (seated) p.resigned.push_back(seat);
      p.record.actions.push_back({seat, Json(kResign)});
    } else {
      const Action a =
          legal.size() == 1 ? legal[0] : legal[pick.below(std::uint32_t(legal.size()))];
      if (legal.size() > 1) p.record.actions.push_back({g.pending().seat, g.action_json(a)});
      g.apply(a, rng, nullptr);
      ++p.decisions;
    }
    if (auto v = g.invariant_violation(); !v.empty()) return broke = v, std::move(p);
  }
  return p;
}

// Empty when the final ranking is complete and consistent with how each seat left; else why not.
std::string ranking_problem(const Played& p) {
  const State& s = static_cast<const MancalaSimple&>(*p.game).state();
  const Result r = p.game->result();
  const int n = s.players;
  if (int(r.places.size()) != n) return "places for every seat";
  int sum_sides = 0, sum_stores = 0;
  for (Seat t = 0; t < n; ++t) {
    sum_sides += side_stones(s, t);
    sum_stores += s.store(t);
  }
  if (sum_sides + sum_stores != n * s.holes * s.stones) return "stones not conserved";
  int finishers = 0, shared = 0;
  for (Seat t = 0; t < n; ++t) {
    if (r.places[t] < 1 || r.places[t] > n) return "place out of range";
    int before = 0, same = 0;
    for (Seat u = 0; u < n; ++u)
      before += r.places[u] < r.places[t], same += r.places[u] == r.places[t];
    if (r.places[t] != 1 + before) return "not a competition ranking";
    shared += same > 1;
    finishers += s.placed[t] == Placed::finished;
    if (s.placed[t] == Placed::finished && side_stones(s, t) != 0) return "finisher with stones";
  }
  // M4: ties only when the rest are ranked by stones; M5: resigners from the bottom, in order.
  if (shared && (s.full_ranking || n == 2)) return "a shared place with full ranking";
  for (std::size_t k = 0; k < p.resigned.size(); ++k)
    if (r.places[p.resigned[k]] != n - int(k)) return "resigners not stacked from the bottom";
  if (r.reason == "finished" && finishers == 0) return "finished without a finisher";
  if (r.reason == "resigned" && p.resigned.empty()) return "resigned without a resignation";
  if (r.reason != "finished" && r.reason != "resigned") return "unknown reason " + r.reason;
  for (Seat t = 0; t < n; ++t)
    if (s.placed[t] == Placed::finished && r.places[t] > finishers) return "finishers not on top";
  return {};
}

TEST_CASE("properties: random games conserve stones, end, rank everyone and replay",
          "[mancala][properties]") {
  const int players = GENERATE(2, 3, 4);
  CAPTURE(players);
  int finished = 0, replayed = 0, resignations = 0, ties = 0;
  for (int n = 0; n < kGames; ++n) {
    std::string broke;
    Played p = play_random(players, std::uint64_t(n), broke);
    if (!broke.empty()) FAIL("game " << n << ": " << broke);
    if (p.game->status() != Status::finished) FAIL("game " << n << " did not end");
    ++finished;
    if (auto why = ranking_problem(p); !why.empty())
      FAIL("game " << n << " " << p.record.options.dump() << ": " << why);
    resignations += !p.resigned.empty();
    const auto& places = p.game->result().places;
    ties += std::set<int>(places.begin(), places.end()).size() < places.size();

    if (n % kReplayEvery) continue;
    Replay r = replay(p.record);
    if (!r.match || r.refusal) FAIL("game " << n << " does not replay");
    const auto& again = static_cast<const MancalaSimple&>(r.match->game()).state();
    if (!(again == static_cast<const MancalaSimple&>(*p.game).state()))
      FAIL("game " << n << " replays to another state");
    ++replayed;
  }
  CHECK(finished == kGames);
  CHECK(replayed == kGames / kReplayEvery);
  // The sample reaches the cases the properties are about.
  CHECK(resignations > kGames / 10);
  if (players > 2) CHECK(ties > 0);
}

}  // namespace
}  // namespace tanbo_server::engine::games::mancala_simple
