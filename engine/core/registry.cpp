#include "engine/core/registry.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/games/catalogue.hpp"

namespace tanbo_server::engine {

std::string_view to_string(Status s) {
  switch (s) {
    case Status::setup:
      return "setup";
    case Status::playing:
      return "playing";
    case Status::finished:
      return "finished";
  }
  return "unknown";
}

namespace {
std::vector<const GameInfo*>& registered() {
  static auto games = games::catalogue();
  return games;
}
}  // namespace

std::span<const GameInfo* const> all_games() { return registered(); }

void register_game(const GameInfo& info) {
  if (find_game(info.id)) throw std::logic_error("game " + info.id + " registered twice");
  registered().push_back(&info);
}

const GameInfo* find_game(std::string_view id) {
  for (const GameInfo* g : all_games())
    if (g->id == id) return g;
  return nullptr;
}

std::vector<OptionSpec> option_specs(const GameInfo& info) {
  std::vector<OptionSpec> specs = info.options;
  OptionSpec first{"first",
                   OptionSpec::Kind::choice,
                   "random",
                   {"random"},
                   0,
                   0,
                   "seat that moves first, or random (drawn from the room's RNG)"};
  for (int s = 0; s < info.max_players; ++s) first.allowed.push_back(s);
  specs.push_back(std::move(first));
  return specs;
}

Json GameInfo::to_json() const {
  Json opts = Json::array();
  for (const auto& spec : option_specs(*this)) opts.push_back(spec.to_json());
  return {{"id", id},
          {"name", name},
          {"summary", summary},
          {"players", {{"min", min_players}, {"max", max_players}, {"default", default_players}}},
          {"options", opts},
          {"custom_setup", custom_setup}};
}

Created create_game(std::string_view id, const Json& options, const Json& setup, int players,
                    Rng& rng) {
  Created out;
  const GameInfo* info = find_game(id);
  if (!info) {
    out.problems.push_back({"game", "unknown game \"" + std::string(id) + "\""});
    return out;
  }
  if (players < info->min_players || players > info->max_players) {
    out.problems.push_back({"players", info->id + " takes " + std::to_string(info->min_players) +
                                           " to " + std::to_string(info->max_players) +
                                           " players, not " + std::to_string(players)});
  }
  out.options = validate_options(option_specs(*info), options, out.problems);
  const Json& first = out.options["first"];
  if (first.is_number_integer() && first.get<int>() >= players)
    out.problems.push_back({"first", "seat " + first.dump() + " does not exist"});
  if (!out.problems.empty()) return out;

  // R5: when the first seat is left to chance, it is the room's first draw.
  out.first = first.is_string() ? Seat(rng.below(std::uint32_t(players))) : first.get<int>();
  try {
    out.game = info->create(CreateArgs{out.options, setup, players, out.first});
  } catch (const BadSetup& bad) {
    out.problems.push_back({bad.field, bad.message});
  }
  return out;
}

}  // namespace tanbo_server::engine
