#include "engine/cli/selfplay.hpp"

#include "engine/cli/args.hpp"

#include <chrono>
#include <map>
#include <stdexcept>

#include "engine/core/registry.hpp"

namespace tanbo_server::engine {

namespace {

// What the games came to, counted as they end.
struct SelfplayTally {
  explicit SelfplayTally(int players) : wins(std::size_t(players), 0) {}
  std::uint64_t decisions = 0, forced = 0, unfinished = 0, draws = 0;
  std::map<std::string, std::uint64_t> reasons;
  std::vector<std::uint64_t> wins;

  void count_end(const Game& game, int players) {
    if (game.status() != Status::finished) {
      ++unfinished;
      return;
    }
    Result r = game.result();
    ++reasons[r.reason];
    int winners = 0;
    for (int p : r.places) winners += p == 1;
    if (winners == players)
      ++draws;
    else
      for (Seat s = 0; s < players; ++s) wins[std::size_t(s)] += r.places[std::size_t(s)] == 1;
  }
};

// One game of random legal actions to its end or to max_decisions; the actions chosen among
// several go into `record` when it is kept.
void play_out(Game& game, const SelfplayConfig& config, Drbg& rng, FastRng& pick, ActionList& legal,
              SelfplayTally& tally, Record* record) {
  std::uint64_t steps = 0;
  while (game.status() != Status::finished && steps < config.max_decisions) {
    game.legal_actions(legal);
    if (legal.empty())
      throw std::logic_error(config.game + ": no legal action while a decision is pending");
    Action a = legal.size() == 1 ? legal[0] : legal[pick.below(std::uint32_t(legal.size()))];
    if (legal.size() == 1)
      ++tally.forced;
    else if (record)
      record->actions.push_back({game.pending().seat, game.action_json(a)});
    game.apply(a, rng, nullptr);
    ++steps;
  }
  tally.decisions += steps;
}

}  // namespace

Json selfplay(const SelfplayConfig& config,
              const std::function<void(std::uint64_t, const Record&)>& on_record) {
  const GameInfo* info = find_game(config.game);
  if (!info) throw std::invalid_argument("unknown game \"" + config.game + "\"");
  const int players = config.players ? config.players : info->default_players;

  // Validate once, then clone one prototype per first seat: creation parses JSON, cloning doesn't.
  Created created = create_or_throw(config.game, config.options, players, "selfplay:probe");
  const Json& first_option = created.options["first"];
  std::vector<std::unique_ptr<Game>> prototypes;
  for (Seat s = 0; s < players; ++s) {
    Json opts = created.options;
    opts["first"] = s;
    prototypes.push_back(info->create(CreateArgs{opts, nullptr, players, s}));
  }

  SelfplayTally tally(players);
  ActionList legal;
  legal.reserve(256);
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t n = 0; n < config.games; ++n) {
    Record record;
    record.seed =
        seed_from_text("selfplay:" + std::to_string(config.seed) + ":" + std::to_string(n));
    Drbg rng(record.seed);
    FastRng pick(config.seed * 0x9e3779b97f4a7c15ULL ^ n);
    // R5: a first seat left to chance is the game's first draw.
    Seat first = first_option.is_string() ? Seat(rng.below(std::uint32_t(players)))
                                          : first_option.get<int>();
    auto game = prototypes[first]->clone();
    play_out(*game, config, rng, pick, legal, tally, on_record ? &record : nullptr);
    tally.count_end(*game, players);
    if (on_record) {
      record.game = config.game;
      record.options = created.options;
      record.players = players;
      on_record(n, record);
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return {{"game", config.game},
          {"options", created.options},
          {"players", players},
          {"seed", config.seed},
          {"games", config.games},
          {"decisions", tally.decisions},
          {"forced_decisions", tally.forced},
          {"unfinished", tally.unfinished},
          {"results", tally.reasons},
          {"wins", tally.wins},
          {"draws", tally.draws},
          {"elapsed_s", elapsed},
          {"games_per_s", elapsed > 0 ? double(config.games) / elapsed : 0.0},
          {"decisions_per_s", elapsed > 0 ? double(tally.decisions) / elapsed : 0.0}};
}

}  // namespace tanbo_server::engine
