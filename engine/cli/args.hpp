#pragma once
// Argument helpers shared by tanbo-engine's commands.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/core/registry.hpp"

namespace tanbo_server::engine {

// A decimal count of at most 18 digits; false for anything else (sign, space, empty, overflow).
inline bool parse_count(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18)
    return false;
  out = std::stoull(text);
  return true;
}

// Creates one game to check the id, player count and options; throws std::invalid_argument
// naming every problem. `probe` names the seed of that one game's draws.
inline Created create_or_throw(const std::string& game, const Json& options, int players,
                               std::string_view probe) {
  Drbg rng(seed_from_text(probe));
  Created created = create_game(game, options, nullptr, players, rng);
  if (created.game) return created;
  std::string what;
  for (auto& p : created.problems) what += (what.empty() ? "" : "; ") + p.field + ": " + p.message;
  throw std::invalid_argument(what);
}

}  // namespace tanbo_server::engine
