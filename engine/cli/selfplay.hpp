#pragma once
// Uniformly random self-play over the engine interface: the throughput benchmark of every game
// and the source of the property tests' games.
#include <cstdint>
#include <functional>
#include <string>

#include "engine/core/record.hpp"

namespace tanbo_server::engine {

struct SelfplayConfig {
  std::string game;
  Json options = Json::object();
  int players = 0;  // 0: the game's default
  std::uint64_t games = 1;
  std::uint64_t seed = 1;
  std::uint64_t max_decisions = 1'000'000;  // per game: a game still going after this is reported
};

// Game n uses the seed sha256("selfplay:<seed>:<n>") for its own draws, and a FastRng seeded
// from (seed, n) to pick among legal actions. on_record, if set, gets every game's record.
// Returns the summary JSON; throws std::invalid_argument for a bad game, option or count.
Json selfplay(const SelfplayConfig& config,
              const std::function<void(std::uint64_t, const Record&)>& on_record = {});

}  // namespace tanbo_server::engine
