// Tsoro in the catalogue: its options (Z1, Z2, Z6) and its creation.
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo_server::engine::games::tsoro {

namespace {

Rules rules_from(const Json& o) {
  Rules r;
  r.columns = o.at("columns").get<int>();
  const std::string heads = o.at("heads").get<std::string>();
  r.heads = heads == "two" ? Heads::two : heads == "one" ? Heads::one : Heads::none;
  r.bonus_holes = o.at("bonus_holes").get<int>();
  r.bonus_optional = o.at("bonus_optional").get<bool>();
  return r;
}

std::unique_ptr<Game> create(const CreateArgs& args) {
  if (!args.setup.is_null()) throw BadSetup{"setup", "tsoro has only the standard set-up"};
  return std::make_unique<Tsoro>(rules_from(args.options), args.first);
}

}  // namespace

const GameInfo& info() {
  using K = OptionSpec::Kind;
  static const GameInfo game{
      "tsoro",
      "Tsoro",
      "Shona four-row mancala: relay sowing, heads that may stop a move, captures with bonus holes",
      2,
      2,
      2,
      {
          {"columns", K::integer, 21, {6, 8, 12, 15, 18, 21}, 0, 0, "holes per row (Z1)"},
          {"heads",
           K::choice,
           "two",
           {"two", "one", "none"},
           0,
           0,
           "head holes per player: the two rightmost outer, the rightmost (3 stones), none (Z2)"},
          {"bonus_holes", K::integer, 2, {}, 0, 3, "extra opponent holes taken per capture (Z6)"},
          {"bonus_optional",
           K::boolean,
           false,
           {},
           0,
           0,
           "the capturer may stop taking bonus holes early (Z6)"},
      },
      create,
      {evaluate, reset_as<Tsoro>, 16}};
  return game;
}

}  // namespace tanbo_server::engine::games::tsoro
