#include "engine/cli/arena.hpp"
#include "engine/cli/args.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <stdexcept>

#include "engine/bots/evaluation.hpp"
#include "engine/core/registry.hpp"

namespace tanbo_server::engine {
namespace {

enum Side { A, B };
constexpr Side side_of(Seat seat, std::uint64_t n) { return (seat + n) % 2 ? B : A; }

using Bots = std::array<std::unique_ptr<bots::Bot>, 2>;

// What the games of a match came to, by side.
struct Tally {
  std::array<std::uint64_t, 2> wins{}, decisions{};
  std::array<double, 2> score{}, seconds{};
  std::uint64_t draws = 0, unfinished = 0;
  std::map<std::string, std::uint64_t> reasons;
};

// Game `n` of the match: side A holds the seats of one parity, B the others, swapped every game.
void play_one(const ArenaConfig& config, int players, const Bots& bot, std::uint64_t n, Tally& t) {
  Drbg rng(seed_from_text("arena:" + std::to_string(config.seed) + ":" + std::to_string(n)));
  auto game = create_game(config.game, config.options, nullptr, players, rng).game;
  std::array<FastRng, 2> pick = {FastRng(config.seed * 0x9e3779b97f4a7c15ULL ^ (2 * n)),
                                 FastRng(config.seed * 0x9e3779b97f4a7c15ULL ^ (2 * n + 1))};
  ActionList legal;
  std::uint64_t steps = 0;
  while (game->status() != Status::finished && steps++ < config.max_decisions) {
    game->legal_actions(legal);
    Action a = legal[0];
    if (legal.size() > 1) {  // R4: a forced decision is never asked
      const Seat seat = game->pending().seat;
      const Side side = side_of(seat, n);
      const auto start = std::chrono::steady_clock::now();
      a = bot[side]->choose(*game, seat, bots::Deadline{}, pick[side]);
      t.seconds[side] +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      ++t.decisions[side];
      if (std::find(legal.begin(), legal.end(), a) == legal.end())
        throw std::logic_error(std::string(to_string(bot[side]->level())) +
                               " bot chose an illegal action in " + config.game);
    }
    game->apply(a, rng, nullptr);
  }
  if (game->status() != Status::finished) {
    ++t.unfinished;
    return;
  }
  const Result r = game->result();
  ++t.reasons[r.reason];
  bots::Rewards reward{};
  bots::rewards_from_places(r.places, reward);
  std::array<double, 2> sum{}, seats{};
  std::array<bool, 2> first{};
  for (Seat s = 0; s < players; ++s) {
    const Side side = side_of(s, n);
    sum[side] += reward[s], ++seats[side];
    first[side] = first[side] || r.places[s] == 1;
  }
  for (int side : {A, B}) t.score[side] += seats[side] ? sum[side] / seats[side] : 0;
  // A win: every seat in first place is one side's; a place shared across the sides is a draw.
  if (first[A] && first[B])
    ++t.draws;
  else
    ++t.wins[first[A] ? A : B];
}

Json report(const ArenaConfig& config, const Json& options, int players, const Bots& bot,
            const Tally& t, double elapsed) {
  std::map<std::string, std::pair<double, std::uint64_t>> by_level;
  for (int side : {A, B}) {
    auto& [s, count] = by_level[std::string(to_string(bot[side]->level()))];
    s += t.seconds[side], count += t.decisions[side];
  }
  Json decision_ms = Json::object();
  for (auto& [level, x] : by_level) decision_ms[level] = x.second ? 1e3 * x.first / x.second : 0.0;
  const std::uint64_t finished = config.games - t.unfinished;
  auto side_json = [&](int side) {
    return Json{
        {"level", to_string(bot[side]->level())},
        {"wins", t.wins[side]},
        {"score", finished ? t.score[side] / double(finished) : 0.0},
        {"decisions", t.decisions[side]},
        {"decision_ms", t.decisions[side] ? 1e3 * t.seconds[side] / t.decisions[side] : 0.0}};
  };
  return {
      {"game", config.game},
      {"options", options},
      {"players", players},
      {"seed", config.seed},
      {"games", config.games},
      {"bot",
       {{"budget_ms", config.bot.budget.count()},
        {"playouts", config.bot.playouts},
        {"playout_depth", config.bot.playout_depth ? Json(*config.bot.playout_depth) : Json()}}},
      {"a", side_json(A)},
      {"b", side_json(B)},
      {"draws", t.draws},
      {"unfinished", t.unfinished},
      {"results", t.reasons},
      {"decision_ms", decision_ms},
      {"elapsed_s", elapsed}};
}

}  // namespace

Json arena(const ArenaConfig& config) {
  const GameInfo* info = find_game(config.game);
  if (!info) throw std::invalid_argument("unknown game \"" + config.game + "\"");
  const int players = config.players ? config.players : info->default_players;
  if (players > bots::kMaxSeats) throw std::invalid_argument("too many players for the bots");
  Created created = create_or_throw(config.game, config.options, players, "arena:probe");

  const Bots bot = {make_bot(config.a, config.bot), make_bot(config.b, config.bot)};
  Tally tally;
  const auto t0 = std::chrono::steady_clock::now();
  for (std::uint64_t n = 0; n < config.games; ++n) play_one(config, players, bot, n, tally);
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return report(config, created.options, players, bot, tally, elapsed);
}

bool parse_arena_args(const std::vector<std::string>& args, ArenaConfig& config,
                      std::string& error) {
  static const std::vector<std::string> known = {
      "--game", "--a",         "--b",        "--games",         "--options",
      "--seed", "--budget-ms", "--playouts", "--playout-depth", "--players"};
  std::map<std::string, std::string> f;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (std::find(known.begin(), known.end(), args[i]) == known.end())
      return error = "unknown argument " + args[i], false;
    if (i + 1 >= args.size()) return error = args[i] + " needs a value", false;
    f[args[i]] = args[i + 1], ++i;
  }
  for (const char* required : {"--game", "--a", "--b"})
    if (!f.count(required)) return error = std::string("arena needs ") + required, false;
  config.game = f["--game"];
  for (auto [flag, level] : {std::pair{"--a", &config.a}, std::pair{"--b", &config.b}}) {
    auto l = bots::level_from(f[flag]);
    if (!l) return error = std::string("bad ") + flag + " (random, greedy or mcts)", false;
    *level = *l;
  }
  if (f.count("--options")) {
    config.options = Json::parse(f["--options"], nullptr, false);
    if (config.options.is_discarded()) return error = "--options is not valid JSON", false;
  }
  std::uint64_t v = 0;
  if (f.count("--players")) {
    if (!parse_count(f["--players"], v) || v > bots::kMaxSeats)
      return error = "bad --players", false;
    config.players = int(v);
  }
  if (f.count("--games") && !parse_count(f["--games"], config.games))
    return error = "bad --games", false;
  if (f.count("--seed") && !parse_count(f["--seed"], config.seed))
    return error = "bad --seed", false;
  if (f.count("--budget-ms")) {
    if (!parse_count(f["--budget-ms"], v) || v > 3'600'000) return error = "bad --budget-ms", false;
    config.bot.budget = std::chrono::milliseconds(v);
  }
  if (f.count("--playouts")) {
    if (!parse_count(f["--playouts"], v) || v < 1 || v > 100'000'000)
      return error = "bad --playouts", false;
    config.bot.playouts = std::uint32_t(v);
  }
  if (f.count("--playout-depth")) {
    if (!parse_count(f["--playout-depth"], v) || v > 1'000'000)
      return error = "bad --playout-depth", false;
    config.bot.playout_depth = std::uint32_t(v);
  }
  return true;
}

}  // namespace tanbo_server::engine
