#include <catch2/catch.hpp>

#include "engine/cli/arena.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

namespace {

Json arena_without_timings(Json j) {
  for (const char* k : {"elapsed_s", "decision_ms"}) j.erase(k);
  for (const char* side : {"a", "b"}) j[side].erase("decision_ms");
  return j;
}

ArenaConfig config_for(const std::string& game, bots::Level a, bots::Level b) {
  ArenaConfig c;
  std::string error;
  REQUIRE(parse_arena_args({"--game", game, "--a", "greedy", "--b", "random", "--games", "4",
                            "--budget-ms", "0", "--playouts", "30", "--seed", "9"},
                           c, error));
  c.a = a, c.b = b;
  return c;
}

}  // namespace

TEST_CASE("arena: every game is played to the end and every game is counted once", "[cli][arena]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Json out = arena(config_for(g->id, bots::Level::mcts, bots::Level::random));
    CHECK(out["games"] == 4);
    CHECK(out["unfinished"] == 0);
    CHECK(out["a"]["wins"].get<int>() + out["b"]["wins"].get<int>() + out["draws"].get<int>() == 4);
  }
}

TEST_CASE("arena: with a playout cap and no time budget the same seed gives the same games",
          "[cli][arena]") {
  ArenaConfig c = config_for("mancala-simple", bots::Level::mcts, bots::Level::greedy);
  CHECK(arena_without_timings(arena(c)) == arena_without_timings(arena(c)));
}

TEST_CASE("arena: bad arguments are named", "[cli][arena]") {
  ArenaConfig c;
  std::string error;
  CHECK_FALSE(parse_arena_args({"--game", "tsoro", "--a", "mcts"}, c, error));
  CHECK(error == "arena needs --b");
  CHECK_FALSE(parse_arena_args({"--game", "tsoro", "--a", "best", "--b", "random"}, c, error));
  CHECK(error.find("--a") != std::string::npos);
  CHECK_FALSE(parse_arena_args(
      {"--game", "tsoro", "--a", "mcts", "--b", "random", "--games", "many"}, c, error));
  CHECK_FALSE(parse_arena_args({"--bogus", "1"}, c, error));
  CHECK(error == "unknown argument --bogus");
  ArenaConfig unknown = config_for("mancala-simple", bots::Level::random, bots::Level::random);
  unknown.game = "chess";
  CHECK_THROWS_AS(arena(unknown), std::invalid_argument);
}
