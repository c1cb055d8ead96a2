#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <string>

#include "engine/bots/bot.hpp"
#include "engine/bots/evaluation.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;
using namespace tanbo_server::engine::bots;

namespace {

// Tight settings so that every pairing of every game stays fast under the sanitizers.
BotConfig quick() {
  BotConfig c;
  c.budget = std::chrono::milliseconds(0);
  c.playouts = 24;
  return c;
}

std::unique_ptr<Game> start(const std::string& id, int players = 0, std::uint64_t seed = 1) {
  const GameInfo* info = find_game(id);
  REQUIRE(info);
  Drbg rng(seed_from_text("bots:" + id + ":" + std::to_string(seed)));
  Created c =
      create_game(id, Json::object(), nullptr, players ? players : info->default_players, rng);
  REQUIRE(c.game);
  return std::move(c.game);
}

// R4: forced decisions are applied on the bot's behalf, as a room would.
void settle(Game& game, Rng& rng) {
  ActionList legal;
  while (game.status() != Status::finished) {
    game.legal_actions(legal);
    if (legal.size() != 1) return;
    game.apply(legal[0], rng, nullptr);
  }
}

// A game `plies` choices in, by uniformly random play, at a real choice.
std::unique_ptr<Game> midgame(const std::string& id, int plies, std::uint64_t seed = 1) {
  auto game = start(id, 0, seed);
  Drbg rng(seed_from_text("midgame"));
  FastRng pick(seed);
  ActionList legal;
  for (int i = 0; i < plies; ++i) {
    settle(*game, rng);
    if (game->status() == Status::finished) break;
    game->legal_actions(legal);
    game->apply(legal[pick.below(std::uint32_t(legal.size()))], rng, nullptr);
  }
  settle(*game, rng);
  REQUIRE(game->status() != Status::finished);
  return game;
}

bool contains(const ActionList& legal, Action a) {
  return std::find(legal.begin(), legal.end(), a) != legal.end();
}

// Plays one game, each seat's bot chosen by `bot_of`; false at the first illegal answer.
template <class BotOf>
bool plays_legally(Game& game, BotOf&& bot_of, std::uint64_t seed, std::string& failure) {
  Drbg rng(seed_from_text("bots:room:" + std::to_string(seed)));
  std::array<FastRng, kMaxSeats> picks = {FastRng(seed),     FastRng(seed + 1), FastRng(seed + 2),
                                          FastRng(seed + 3), FastRng(seed + 4), FastRng(seed + 5),
                                          FastRng(seed + 6), FastRng(seed + 7)};
  ActionList legal;
  for (int steps = 0; game.status() != Status::finished; ++steps) {
    if (steps > 100000) return failure = "game did not end", false;
    game.legal_actions(legal);
    Action a = legal[0];
    if (legal.size() > 1) {
      const Seat seat = game.pending().seat;
      a = bot_of(seat).choose(game, seat, Deadline{}, picks[seat]);
      if (!contains(legal, a))
        return failure = "illegal action " + game.action_json(a).dump(), false;
    }
    game.apply(a, rng, nullptr);
  }
  return true;
}

// CPU time this thread has used. The bounds below on how soon a search stops are on it, not on
// the wall clock: a thread descheduled on a loaded machine (a sanitized suite beside other work
// took 409 ms of wall time for a 1 ms deadline) still stops at its first check after the
// deadline, while a search that ignored it would play out its 100 million playouts.
std::chrono::nanoseconds thread_cpu_time() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace

TEST_CASE("every level of every game plays complete games against every other level, legally",
          "[bots][legal]") {
  std::array<std::unique_ptr<Bot>, 3> bot = {make_bot(Level::random, quick()),
                                             make_bot(Level::greedy, quick()),
                                             make_bot(Level::mcts, quick())};
  for (const GameInfo* g : all_games()) {
    for (Level a : kLevels)
      for (Level b : kLevels) {
        CAPTURE(g->id, to_string(a), to_string(b));
        auto game = start(g->id, 0, 7);
        std::string failure;
        const bool ok = plays_legally(
            *game, [&](Seat s) -> const Bot& { return *bot[int(s % 2 ? b : a)]; }, 7, failure);
        CAPTURE(failure);
        CHECK(ok);
        CHECK(game->status() == Status::finished);
      }
  }
}

TEST_CASE("mancala-simple: bots play 3 and 4 player games to the last place, legally",
          "[bots][legal][mancala]") {
  std::array<std::unique_ptr<Bot>, 3> bot = {make_bot(Level::random, quick()),
                                             make_bot(Level::greedy, quick()),
                                             make_bot(Level::mcts, quick())};
  for (int players : {3, 4}) {
    CAPTURE(players);
    auto game = start("mancala-simple", players, 3);
    std::string failure;
    const bool ok = plays_legally(
        *game, [&](Seat s) -> const Bot& { return *bot[s % 3]; }, 3, failure);
    CAPTURE(failure);
    CHECK(ok);
    REQUIRE(game->status() == Status::finished);
    auto places = game->result().places;
    std::sort(places.begin(), places.end());
    CHECK(places.back() == players);  // M4: full ranking down to the last place
  }
}

TEST_CASE("a bot asked about a one-action list answers that action", "[bots][R4]") {
  // tanbo's first decisions include forced ones (R4): find one and ask every level.
  auto game = start("tanbo");
  Drbg rng(seed_from_text("forced"));
  FastRng pick(5);
  ActionList legal;
  for (int i = 0; i < 2000 && game->status() != Status::finished; ++i) {
    game->legal_actions(legal);
    if (legal.size() == 1) break;
    game->apply(legal[pick.below(std::uint32_t(legal.size()))], rng, nullptr);
  }
  REQUIRE(legal.size() == 1);
  for (Level level : kLevels) {
    CAPTURE(to_string(level));
    FastRng r(1);
    CHECK(make_bot(level, quick())->choose(*game, game->pending().seat, Deadline{}, r) == legal[0]);
  }
}

TEST_CASE("a bot refuses to move for a seat that is not pending", "[bots][contract]") {
  auto game = midgame("steere-tanbo", 3);
  const Seat other = 1 - game->pending().seat;
  FastRng r(1);
  for (Level level : kLevels) {
    CAPTURE(to_string(level));
    CHECK_THROWS_AS(make_bot(level)->choose(*game, other, Deadline{}, r), std::logic_error);
  }
}

TEST_CASE("a deadline of 1 ms still gets a legal action, in time", "[bots][deadline]") {
  BotConfig slow;
  slow.budget = std::chrono::milliseconds(0);  // nothing but the deadline and the cap bounds it
  slow.playouts = 100'000'000;
  auto mcts = make_bot(Level::mcts, slow);
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    auto game = midgame(g->id, 6);
    ActionList legal;
    game->legal_actions(legal);
    FastRng r(2);
    const auto t0 = thread_cpu_time();
    const Action a =
        mcts->choose(*game, game->pending().seat, Deadline::after(std::chrono::milliseconds(1)), r);
    const auto took = thread_cpu_time() - t0;
    CHECK(contains(legal, a));
    CHECK(took < std::chrono::milliseconds(200));  // one iteration past the deadline at most
  }

  SECTION("a deadline already passed answers at once") {
    auto game = midgame("tsoro", 4);
    ActionList legal;
    game->legal_actions(legal);
    FastRng r(3);
    for (Level level : kLevels) {
      CAPTURE(to_string(level));
      const Action a =
          make_bot(level, slow)->choose(*game, game->pending().seat, Deadline{Clock::now()}, r);
      CHECK(contains(legal, a));
    }
  }

  SECTION("a raised stop flag ends the search like a deadline") {
    std::atomic<bool> stop{true};
    auto game = midgame("steere-tanbo", 4);
    ActionList legal;
    game->legal_actions(legal);
    FastRng r(4);
    const auto t0 = thread_cpu_time();
    const Action a =
        mcts->choose(*game, game->pending().seat, Deadline{Clock::time_point::max(), &stop}, r);
    CHECK(contains(legal, a));
    CHECK(thread_cpu_time() - t0 < std::chrono::milliseconds(200));
  }

  SECTION("the configured budget bounds a decision without a deadline") {
    BotConfig budgeted = slow;
    budgeted.budget = std::chrono::milliseconds(5);
    auto game = midgame("tanbo", 10);
    FastRng r(5);
    const auto t0 = thread_cpu_time();
    make_bot(Level::mcts, budgeted)->choose(*game, game->pending().seat, Deadline{}, r);
    CHECK(thread_cpu_time() - t0 < std::chrono::milliseconds(500));
  }
}

TEST_CASE("the same seed gives the same choice", "[bots][determinism]") {
  BotConfig capped = quick();
  capped.playouts = 64;
  for (const GameInfo* g : all_games()) {
    for (int plies : {2, 9, 20}) {
      CAPTURE(g->id, plies);
      auto game = midgame(g->id, plies, std::uint64_t(plies));
      const Seat seat = game->pending().seat;
      for (Level level : kLevels) {
        CAPTURE(to_string(level));
        auto bot = make_bot(level, capped);
        std::vector<Action> first, again;
        FastRng r1(11), r2(11);
        for (int i = 0; i < 4; ++i) first.push_back(bot->choose(*game, seat, Deadline{}, r1));
        for (int i = 0; i < 4; ++i) again.push_back(bot->choose(*game, seat, Deadline{}, r2));
        CHECK(first == again);
      }
    }
  }

  SECTION("and different seeds spread random's choices over the legal list") {
    auto game = midgame("steere-tanbo", 2);
    ActionList legal;
    game->legal_actions(legal);
    REQUIRE(legal.size() > 4);
    auto bot = make_bot(Level::random);
    std::vector<Action> seen;
    for (std::uint64_t s = 0; s < 200; ++s) {
      FastRng r(s);
      Action a = bot->choose(*game, game->pending().seat, Deadline{}, r);
      if (!contains(seen, a)) seen.push_back(a);
    }
    CHECK(seen.size() > 4);
  }
}

TEST_CASE("greedy and mcts take a win on the spot", "[bots][greedy][mcts]") {
  // The first decision of a random game where some choices win at once and others do not:
  // steere-tanbo (S4, S5: bounding the last root away) and tsoro (Z6, Z7: the last capture).
  for (const char* id : {"steere-tanbo", "tsoro"}) {
    CAPTURE(id);
    std::unique_ptr<Game> game;
    Drbg rng(seed_from_text("win"));
    ActionList legal;
    bool found = false;
    for (std::uint64_t seed = 1; seed < 200 && !found; ++seed) {
      game = start(id, 0, seed);
      FastRng p(seed);
      while (!found && game->status() != Status::finished) {
        game->legal_actions(legal);
        int winning = 0;
        for (Action a : legal) {
          auto c = game->clone();
          c->apply(a, rng, nullptr);
          winning +=
              c->status() == Status::finished && c->result().places[game->pending().seat] == 1;
        }
        found = winning >= 1 && winning < int(legal.size());
        if (!found) game->apply(legal[p.below(std::uint32_t(legal.size()))], rng, nullptr);
      }
    }
    REQUIRE(found);
    const Seat seat = game->pending().seat;
    for (Level level : {Level::greedy, Level::mcts}) {
      CAPTURE(to_string(level));
      FastRng r(1);
      BotConfig c = quick();
      c.playouts = 400;
      auto copy = game->clone();
      copy->apply(make_bot(level, c)->choose(*game, seat, Deadline{}, r), rng, nullptr);
      REQUIRE(copy->status() == Status::finished);
      CHECK(copy->result().places[seat] == 1);
    }
  }
}

TEST_CASE("rewards follow places: win 1, loss 0, shared place 1/2 per pair", "[bots][rewards]") {
  Rewards r{};
  SECTION("two players") {
    rewards_from_places({1, 2}, r);
    CHECK(r[0] == 1.0);
    CHECK(r[1] == 0.0);
  }
  SECTION("a draw") {
    rewards_from_places({1, 1}, r);
    CHECK(r[0] == 0.5);
    CHECK(r[1] == 0.5);
  }
  SECTION("four players with a shared second place (M4: 1, 2, 2, 4)") {
    rewards_from_places({2, 1, 4, 2}, r);
    CHECK(r[1] == 1.0);
    CHECK(r[0] == Approx(1.5 / 3));
    CHECK(r[3] == Approx(1.5 / 3));
    CHECK(r[2] == 0.0);
  }
}

TEST_CASE("levels are named random, greedy and mcts", "[bots]") {
  for (Level l : kLevels) CHECK(level_from(to_string(l)) == l);
  CHECK_FALSE(level_from("minimax"));
}
