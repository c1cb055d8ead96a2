// Random games through the engine interface: every option and board size plays to the end, and
// the properties of every game hold over 10,000 games per board size.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "tests/engine/games/tsoro/position.hpp"

using namespace tsoro_test;

namespace {

constexpr const char* kHeads[] = {"two", "one", "none"};

// Laps until a sowing ends or reaches an occupied head, -1 past `limit`. Written apart from
// sowing.cpp: one stone at a time, no cycle finding.
int naive_laps(Side side, const Rules& r, Hole h, int limit) {
  const int holes = r.holes();
  for (int laps = 1; laps <= limit; ++laps) {
    int stones = side[h];
    side[h] = 0;
    Hole at = h;
    while (stones--) {
      at = (at + 1) % holes;
      ++side[at];
    }
    if (side[at] == 1 || contains(r.head_set(), at)) return laps;
    h = at;
  }
  return -1;
}

int stones_in_play(const Tsoro& t) {
  return t.stones_on_side(0) + t.stones_on_side(1) + t.captured(0) + t.captured(1);
}

// Z5: every listed start and relay ends; every start of two or more left out is endless.
std::string check_sowings(const Tsoro& t, const ActionList& legal) {
  const Side& side = t.board()[t.mover()];
  const Rules& r = t.rules();
  if (t.phase() == Tsoro::Phase::head) {
    const bool listed = legal.front() == kHeadRelay;
    if (listed != (naive_laps(side, r, t.head(), 4000) >= 0)) return "a relay listed wrongly";
  }
  if (t.phase() != Tsoro::Phase::sow || t.singletons()) return {};
  for (Hole h = 0; h < r.holes(); ++h) {
    if (side[h] < 2) continue;
    const bool listed = std::find(legal.begin(), legal.end(), sow_action(h)) != legal.end();
    if (listed != (naive_laps(side, r, h, 4000) >= 0)) return "a start listed wrongly";
  }
  return {};
}

struct Played {
  std::unique_ptr<tanbo_server::engine::Game> game;
  Record record;
};

// The game's start as a Match would make it, from options naming the first seat (no draw).
Played start(const Json& options) {
  Played g;
  g.record.game = "tsoro";
  g.record.seed = seed_from_text("tsoro-test");
  Drbg unused(g.record.seed);
  Created created = create_game("tsoro", options, nullptr, 2, unused);
  g.record.options = created.options;
  g.game = std::move(created.game);
  return g;
}

// Plays uniformly random actions to the end, recorded (when `record`) as a Match would record
// them: forced decisions (R4) are not logged. Names the first property that broke in `failure`.
void play_out(Played& g, std::uint64_t n, bool record, std::string& failure) {
  const auto& t = dynamic_cast<const Tsoro&>(*g.game);
  const int total = stones_in_play(t);
  FastRng pick(n);
  ActionList legal;
  for (int step = 0; t.status() != Status::finished; ++step) {
    t.legal_actions(legal);
    if (legal.empty() || step > 100'000) {
      failure = "no end in sight";
      return;
    }
    if (failure.empty()) failure = check_sowings(t, legal);
    const Action a = legal[legal.size() == 1 ? 0 : pick.below(std::uint32_t(legal.size()))];
    if (record && legal.size() > 1)
      g.record.actions.push_back({t.pending().seat, t.action_json(a)});
    g.game->apply(a, pick, nullptr);
    if (failure.empty() && stones_in_play(t) != total) failure = "stones not conserved";
    if (failure.empty()) failure = t.invariant_violation();
  }
}

}  // namespace

TEST_CASE("every option and board size plays to the end", "[tsoro][play]") {
  const int columns = GENERATE(6, 8, 12, 15, 18, 21);
  for (const char* heads : kHeads)
    for (int bonus = 0; bonus <= 3; ++bonus)
      for (bool optional : {false, true}) {
        const Json options = {{"columns", columns},
                              {"heads", heads},
                              {"bonus_holes", bonus},
                              {"bonus_optional", optional}};
        CAPTURE(options);
        std::string failure;
        Played g = start(options);
        play_out(g, std::uint64_t(columns * 100 + bonus * 2 + optional), true, failure);
        CHECK(failure.empty());
        CHECK(g.game->status() == Status::finished);
      }
}

TEST_CASE("properties hold over 10,000 random games per board size", "[tsoro][play][properties]") {
  const int columns = GENERATE(6, 8, 12, 15, 18, 21);
  CAPTURE(columns);
  constexpr int kGames = 10'000, kReplayEvery = 100;
  // The options cycle so every combination meets every board size; creation parses JSON, so
  // each combination is made once and cloned.
  std::vector<Played> starts;
  for (int n = 0; n < 96; ++n)
    starts.push_back(start({{"columns", columns},
                            {"heads", kHeads[n % 3]},
                            {"bonus_holes", n / 3 % 4},
                            {"bonus_optional", n / 12 % 2 == 1},
                            {"first", n / 24 % 2}}));
  int failures = 0, replay_failures = 0;
  std::string first_failure;
  for (int n = 0; n < kGames; ++n) {
    const Played& from = starts[n % starts.size()];
    Played g{from.game->clone(), from.record};
    std::string failure;
    const bool replayed = n % kReplayEvery == 0;
    play_out(g, std::uint64_t(columns) << 32 | std::uint64_t(n), replayed, failure);
    if (!failure.empty() && !failures++) first_failure = g.record.options.dump() + ": " + failure;
    if (!replayed) continue;
    // R2: the record alone rebuilds the final state.
    Replay r = replay(g.record);
    if (!r.match || r.refusal ||
        !(dynamic_cast<const Tsoro&>(r.match->game()) == dynamic_cast<const Tsoro&>(*g.game)))
      ++replay_failures;
  }
  CHECK(first_failure == "");
  CHECK(failures == 0);
  CHECK(replay_failures == 0);
}
