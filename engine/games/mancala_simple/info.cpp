// The catalogue entry: options (M1, M4) and creation. The time control and the first seat of a
// rematch (M6) are the room's, not engine options.
#include "engine/games/mancala_simple/mancala_simple.hpp"
#include "engine/games/mancala_simple/rules.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

std::unique_ptr<Game> create(const CreateArgs& args) {
  if (!args.setup.is_null()) throw BadSetup{"setup", "mancala-simple has only the standard set-up"};
  const State s =
      setup(args.players, args.options.at("holes").get<int>(), args.options.at("stones").get<int>(),
            args.options.at("full_ranking").get<bool>(), args.first);
  return std::make_unique<MancalaSimple>(s);
}

GameInfo make_info() {
  GameInfo g;
  g.id = "mancala-simple";
  g.name = "Mancala simple";
  g.summary = "Sow your stones through every store and empty your side first. 2 to 4 players.";
  g.min_players = 2;
  g.max_players = kMaxPlayers;
  g.default_players = 2;
  using Kind = OptionSpec::Kind;
  g.options = {
      {"holes",
       Kind::integer,
       6,
       {4, 6, 7},
       0,
       0,
       "holes per player: 6, or 7 with 2 players, or 4 with 3-4; any other combination plays 6 "
       "(M1)"},
      {"stones", Kind::integer, 4, {3, 4}, 0, 0, "stones in each hole at the start (M1)"},
      {"full_ranking",
       Kind::boolean,
       true,
       {},
       0,
       0,
       "3-4 players: finishers leave and the rest play on for every place; off: stop at the "
       "first finisher and rank the rest by fewest stones left (M4)"},
  };
  g.create = create;
  g.bots = {evaluate, reset_as<MancalaSimple>};
  return g;
}

}  // namespace

const GameInfo& info() {
  static const GameInfo g = make_info();
  return g;
}

}  // namespace tanbo_server::engine::games::mancala_simple
