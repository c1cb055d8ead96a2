#pragma once
// Bots against bots: N games of one game between two levels, A and B, that swap seats every game
// (with 3-4 players A and B fill the seats alternately, the pattern shifted by one each game). The
// room's part is played as a server would: the game's draws come from a DRBG per game, forced
// decisions are applied without asking (R4), and every bot answer is checked against the legal
// list before it is applied.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/bots/bot.hpp"
#include "engine/core/game.hpp"

namespace tanbo_server::engine {

struct ArenaConfig {
  std::string game;
  Json options = Json::object();
  int players = 0;  // 0: the game's default
  bots::Level a = bots::Level::mcts;
  bots::Level b = bots::Level::random;
  std::uint64_t games = 2;
  std::uint64_t seed = 1;
  bots::BotConfig bot;                      // both sides' settings (only mcts reads them)
  std::uint64_t max_decisions = 1'000'000;  // per game: a game still going after this is reported
};

// Game n draws from sha256("arena:<seed>:<n>") and A's and B's FastRngs are seeded from
// (seed, n); with a playout cap and no time budget the output is the same for the same seed,
// apart from timings. Returns the summary JSON; throws std::invalid_argument for a bad game,
// option or count, std::logic_error if a bot ever answers with an action not legal.
Json arena(const ArenaConfig& config);

// Reads the arena flags (everything after the command); false with `error` set on a bad one.
bool parse_arena_args(const std::vector<std::string>& args, ArenaConfig& config,
                      std::string& error);

}  // namespace tanbo_server::engine
