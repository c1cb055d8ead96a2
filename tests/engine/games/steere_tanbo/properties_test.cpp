// Steere Tanbo properties over 5,000 uniformly random games on every board. Every turn of every
// game is checked against the engine's own root table (no live root without a liberty, no more
// roots than before), and every final position against a full recount; a slow reference that
// reads the rules straight off the board checks every turn of one game in kFullEvery and the
// final position of every game. The reference costs a board scan per call, which the 12 million
// turns of all 45,000 games cannot afford under the sanitizers.
#include "tests/engine/games/steere_tanbo/diagram.hpp"

#include <array>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace steere_test;

namespace {

constexpr int kGamesPerSize = 5000;
constexpr int kFullEvery = 10;     // games checked by the reference on every turn
constexpr int kReplayEvery = 250;  // games replayed through engine::replay

// S3/S4 from the board alone: groups by flood fill, liberties and moves by counting neighbours.
// Its own layout: board index i = (y + 1) * (w + 2) + x + 1, with a frame of kOff cells.
struct Reference {
  static constexpr int kOff = -2, kNone = -1, kSize = (kMaxSide + 2) * (kMaxSide + 2);
  int groups = 0;
  std::array<int, kColors> groups_of{};
  std::array<PointSet, kColors> moves{};
  std::string problem;  // empty when every check passed

  explicit Reference(const Position& pos) { check(pos); }

  void check(const Position& pos) {
    const Geometry& g = pos.geometry();
    const int w = g.width, h = g.height, stride = w + 2, n = (h + 2) * stride;
    std::array<int, kSize> cell, group, stack;
    std::array<Point, kSize> point;  // the engine's point of board index i
    std::array<int, kMaxPoints> first_stone, group_of_root;
    cell.fill(kOff);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const int i = (y + 1) * stride + x + 1;
        point[i] = g.at(x, y);
        const Cell c = pos.at(point[i]);
        cell[i] = c == kBlackStone ? 0 : c == kWhiteStone ? 1 : kNone;
      }
    const std::array<int, 4> steps{-stride, -1, 1, stride};
    // A group is one root: its stones share an id no other group has (roots never merge).
    group.fill(-1);
    group_of_root.fill(-1);
    for (int i = 0; i < n; ++i) {
      if (cell[i] < 0 || group[i] >= 0) continue;
      const int id = groups++;
      const RootId root = pos.root_of(point[i]);
      if (group_of_root[root] >= 0) return set_problem("a root is split at " + g.name(point[i]));
      group_of_root[root] = id;
      ++groups_of[cell[i]];
      first_stone[id] = i;
      int top = 0;
      stack[top++] = i;
      group[i] = id;
      while (top) {
        const int s = stack[--top];
        if (pos.root_of(point[s]) != root)
          return set_problem("a group holds two roots at " + g.name(point[s]));
        for (int d : steps)
          if (cell[s + d] == cell[i] && group[s + d] < 0) group[s + d] = id, stack[top++] = s + d;
      }
    }
    // S4: a liberty is an empty point next to the root with exactly one neighbour of its colour.
    std::array<bool, kMaxPoints> free{};
    for (int i = 0; i < n; ++i) {
      if (cell[i] != kNone) continue;
      std::array<int, kColors> count{}, last{};
      for (int d : steps)
        if (cell[i + d] >= 0) ++count[cell[i + d]], last[cell[i + d]] = i + d;
      for (int c = 0; c < kColors; ++c)
        if (count[c] == 1) free[group[last[c]]] = true, moves[c].set(point[i]);
    }
    for (int id = 0; id < groups; ++id)
      if (!free[id]) return set_problem("bounded root at " + g.name(point[first_stone[id]]));
  }
  void set_problem(std::string what) { problem = std::move(what); }
};

struct Totals {
  std::uint64_t games = 0, turns = 0, removals = 0, referenced = 0, replays = 0;
};

int roots_alive(const Position& pos) { return pos.roots_alive(black) + pos.roots_alive(white); }

// The engine's own view of S4: empty when every live root has a liberty.
std::string bounded_by_counters(const Position& pos) {
  for (int r = 0; r < pos.root_count(); ++r)
    if (pos.root(RootId(r)).stones && !pos.root(RootId(r)).liberties)
      return "root " + std::to_string(r) + " is bounded";
  return {};
}

void play_games(const std::string& size, Totals& totals) {
  Drbg creation(seed_from_text("steere-tanbo properties"));
  std::array<std::unique_ptr<Game>, 2> start;
  for (Seat first : {0, 1}) {
    Created c =
        create_game("steere-tanbo", {{"size", size}, {"first", first}}, nullptr, 2, creation);
    REQUIRE(c.game);
    start[first] = std::move(c.game);
  }
  ActionList legal;
  for (int n = 0; n < kGamesPerSize; ++n) {
    const Seat first = n % 2;
    SteereTanbo game = dynamic_cast<const SteereTanbo&>(*start[first]);
    FastRng pick(std::hash<std::string>{}(size) ^ std::uint64_t(n));
    const bool full = n % kFullEvery == 0, replayed = n % kReplayEvery == 0;
    Record record;
    if (replayed) {
      record.game = "steere-tanbo";
      record.options = {{"size", size}, {"first", first}};
      record.seed = seed_from_text("steere-tanbo replay " + std::to_string(n));
    }
    REQUIRE(Reference(game.position()).problem.empty());
    int roots = roots_alive(game.position());
    while (game.status() != Status::finished) {
      game.legal_actions(legal);
      if (legal.empty()) FAIL("no legal move on " << size << " game " << n);
      const Action a = legal[pick.below(std::uint32_t(legal.size()))];
      // R4: the record holds real choices only; replay takes forced moves itself.
      if (replayed && legal.size() > 1)
        record.actions.push_back({game.pending().seat, game.action_json(a)});
      game.apply(a, pick, nullptr);
      ++totals.turns;

      const Position& pos = game.position();
      const int roots_now = roots_alive(pos);
      // Roots are never created; they only go.
      if (roots_now > roots) FAIL("roots rose on " << size << " game " << n);
      const bool removed = roots_now < roots;
      totals.removals += removed;
      roots = roots_now;
      // S4: no bounded root at the end of any turn.
      if (const std::string v = bounded_by_counters(pos); !v.empty()) {
        CAPTURE(size, n, pos.ply(), pos.rows());
        FAIL(v);
      }
      if (!full) continue;

      ++totals.referenced;
      const Reference ref(pos);
      if (!ref.problem.empty()) {
        CAPTURE(size, n, pos.ply(), pos.rows());
        FAIL(ref.problem);
      }
      if (ref.groups != roots_now) FAIL("root counts differ on " << size << " game " << n);
      // S3: the incremental move sets are the reference's.
      if (game.status() != Status::finished &&
          ref.moves != std::array{pos.moves(black), pos.moves(white)})
        FAIL("move sets differ on " << size << " game " << n << " ply " << pos.ply());
    }
    // S5: exactly one colour is left, and it won.
    const Position& pos = game.position();
    REQUIRE((pos.stones(black) == 0) != (pos.stones(white) == 0));
    const Color winner = pos.stones(black) ? black : white;
    REQUIRE(game.result().places[game.seat_of(winner)] == 1);
    REQUIRE(game.invariant_violation().empty());
    REQUIRE(Reference(pos).problem.empty());
    ++totals.games;

    if (replayed) {
      Replay r = replay(record);
      REQUIRE(r.match);
      REQUIRE_FALSE(r.refusal);
      REQUIRE(r.match->game().status() == Status::finished);
      REQUIRE(dynamic_cast<const SteereTanbo&>(r.match->game()) == game);
      ++totals.replays;
    }
  }
}

}  // namespace

TEST_CASE("Random games keep every rule on every board", "[steere-tanbo][properties]") {
  const std::string size = GENERATE(as<std::string>{}, "7x7", "11x11", "15x15", "19x19", "5x7",
                                    "7x9", "9x11", "11x13", "13x15");
  CAPTURE(size);
  Totals totals;
  play_games(size, totals);
  CHECK(totals.games == kGamesPerSize);
  CHECK(totals.replays == kGamesPerSize / kReplayEvery);
  // Not vacuous: games are long and remove roots.
  CHECK(totals.removals > totals.games);
  CHECK(totals.turns > 20 * totals.games);
  CHECK(totals.referenced > totals.turns / (2 * kFullEvery));
}
