// The registry entry of Tanbo (Musoka Studio): id, players and the options of docs/rules/tanbo.md.
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {

const GameInfo& info() {
  using K = OptionSpec::Kind;
  static const GameInfo game{
      "tanbo",
      "Tanbo (Musoka Studio)",
      "Rice farming on a mancala mechanic: sow your paddies, harvest, reach 25 points.",
      2,
      2,
      2,
      {
          {"replay_cascade",
           K::boolean,
           true,
           {},
           0,
           0,
           "a replay action phase performs every action the counts give (T5)"},
          {"forbid_noop_swap",
           K::boolean,
           false,
           {},
           0,
           0,
           "the opponent's swap in action E must change something (T4)"},
          {"farmer_counts_toward_limit",
           K::boolean,
           false,
           {},
           0,
           0,
           "the Farmer counts toward the 10-token paddy limit (T6)"},
          {"stall_rounds",
           K::integer,
           60,
           {},
           1,
           1000,
           "the game ends after 2 x this many turns without a score change (T8)"},
      },
      create,
      {evaluate, reset_as<TanboGame>},
      true,
  };
  return game;
}

const GameInfo& TanboGame::info() const { return tanbo::info(); }

}  // namespace tanbo_server::engine::games::tanbo
