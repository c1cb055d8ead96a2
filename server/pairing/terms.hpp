#pragma once
// The terms of a game to be paired for (a Play now pool, a challenge) as the engine reads them:
// the game's options normalized and the player count given, so that two seekers asking for the
// same game in different words wait in the same pool.
#include <string>

#include "engine/core/options.hpp"
#include "protocol/client.hpp"

namespace tanbo_server::server::pairing {

// What the engine says of a room's game: its normalized options, or every problem (bad_option).
struct Checked {
  protocol::Json options;
  engine::Problems problems;
};
Checked check_game(const std::string& game, const protocol::Json& options,
                   const protocol::Json& setup, int players);

struct CheckedTerms {
  protocol::GameTerms terms;  // normalized when problems is empty
  engine::Problems problems;
};
CheckedTerms check_terms(protocol::GameTerms terms);

// A pool's id: 12 hex digits of the SHA-256 of its normalized terms.
std::string pool_id(const protocol::GameTerms& normalized);

protocol::Json to_json(const protocol::GameTerms& terms);
std::optional<protocol::GameTerms> terms_from_json(const protocol::Json& j);

}  // namespace tanbo_server::server::pairing
