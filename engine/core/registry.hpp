#pragma once
// The catalogue of games, and the one way to start a game: create_game validates the game id,
// the player count, the options and the set-up, and draws the first seat when it is left to
// chance (R5, R6).
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/options.hpp"

namespace tanbo_server::engine {

// Thrown by a game's create for a set-up or option combination it cannot accept.
struct BadSetup {
  std::string field;
  std::string message;
};

struct CreateArgs {
  const Json& options;  // validated, every default filled in, `first` resolved to a seat
  const Json& setup;    // null for the game's standard set-up
  int players;
  Seat first;
};

// What the bots (engine/bots) know of a game, given by its registration.
struct BotHooks {
  // A position still playing, seen from `seat`: higher is better. Null: every such position is
  // even, and only finished games tell the search anything.
  double (*evaluate)(const Game& game, Seat seat) = nullptr;
  // dst = src for two games of this type, reusing dst's storage (the search resets its scratch
  // game from the root every iteration). Null: the search clones instead.
  void (*reset)(Game& dst, const Game& src) = nullptr;
  // Random playouts stop after this many decisions (0: at the game's end): a short horizon where
  // playouts are long and aimless (docs/bots.md).
  std::uint32_t playout_depth = 0;
};

// BotHooks::reset for a game of type G.
template <class G>
void reset_as(Game& dst, const Game& src) {
  static_cast<G&>(dst) = static_cast<const G&>(src);
}

struct GameInfo {
  std::string id;
  std::string name;
  std::string summary;
  int min_players = 2;
  int max_players = 2;
  int default_players = 2;
  // The game's own options; every game also gets `first` (R6), added by the registry.
  std::vector<OptionSpec> options;
  std::function<std::unique_ptr<Game>(const CreateArgs&)> create;
  BotHooks bots;
  // Whether create takes a position other than the standard set-up (CreateArgs::setup).
  bool custom_setup = false;

  Json to_json() const;
};

std::span<const GameInfo* const> all_games();
// Adds a game after the catalogue's own (engine/games/catalogue.cpp), at start-up, before
// anything reads the list: a test build's own games. Its id must be new.
void register_game(const GameInfo& info);
const GameInfo* find_game(std::string_view id);

// The option list shown to clients: the game's own plus `first`.
std::vector<OptionSpec> option_specs(const GameInfo& info);

struct Created {
  std::unique_ptr<Game> game;
  Json options;  // normalized: every option named, `first` as given (a seat or "random")
  Seat first = 0;
  Problems problems;  // non-empty when nothing was created
};

// Draws from rng only when `first` is "random" (the room's first draw, R5).
Created create_game(std::string_view id, const Json& options, const Json& setup, int players,
                    Rng& rng);

}  // namespace tanbo_server::engine
