// The two simple levels, and the level names.
#include <stdexcept>
#include <string>

#include "engine/bots/evaluation.hpp"
#include "engine/bots/levels.hpp"

namespace tanbo_server::engine::bots {

std::string_view to_string(Level level) {
  switch (level) {
    case Level::random:
      return "random";
    case Level::greedy:
      return "greedy";
    case Level::mcts:
      return "mcts";
  }
  return "?";
}

std::optional<Level> level_from(std::string_view name) {
  for (Level l : kLevels)
    if (to_string(l) == name) return l;
  return std::nullopt;
}

void legal_for(const Game& game, Seat seat, ActionList& out) {
  if (game.status() == Status::finished) throw std::logic_error("bot asked to move in a game over");
  if (game.pending().seat != seat)
    throw std::logic_error("bot asked to move for seat " + std::to_string(seat) +
                           ", not the pending seat");
  game.legal_actions(out);
  if (out.empty()) throw std::logic_error("bot asked to move with no legal action");
}

namespace {

// Uniform over the legal list.
class RandomBot final : public Bot {
 public:
  Level level() const override { return Level::random; }
  Action choose(const Game& game, Seat seat, const Deadline&, FastRng& rng) const override {
    ActionList legal;
    legal_for(game, seat, legal);
    return legal.size() == 1 ? legal[0] : legal[rng.below(std::uint32_t(legal.size()))];
  }
};

// One ply: plays each legal action on a copy (the game's draws from the bot's own rng) and keeps
// the best by the game's evaluation, ties broken uniformly (reservoir sampling). Past the deadline
// the best of the actions tried so far stands.
class GreedyBot final : public Bot {
 public:
  Level level() const override { return Level::greedy; }
  Action choose(const Game& game, Seat seat, const Deadline& deadline,
                FastRng& rng) const override {
    ActionList legal;
    legal_for(game, seat, legal);
    if (legal.size() == 1) return legal[0];
    const Evaluation evaluate = evaluation_for(game);
    const Reset reset = reset_for(game);
    std::unique_ptr<Game> scratch = game.clone();
    Action best = legal[rng.below(std::uint32_t(legal.size()))];
    double best_value = 0;
    std::uint32_t ties = 0;
    for (Action a : legal) {
      if (ties && deadline.passed()) break;
      if (reset)
        reset(*scratch, game);
      else
        scratch = game.clone();
      scratch->apply(a, rng, nullptr);
      const double v = evaluate(*scratch, seat);
      if (!ties || v > best_value)
        best = a, best_value = v, ties = 1;
      else if (v == best_value && rng.below(++ties) == 0)
        best = a;
    }
    return best;
  }
};

}  // namespace

std::unique_ptr<Bot> make_random() { return std::make_unique<RandomBot>(); }
std::unique_ptr<Bot> make_greedy() { return std::make_unique<GreedyBot>(); }

std::unique_ptr<Bot> make_bot(Level level, const BotConfig& config) {
  switch (level) {
    case Level::random:
      return make_random();
    case Level::greedy:
      return make_greedy();
    case Level::mcts:
      return make_mcts(config);
  }
  throw std::invalid_argument("unknown bot level");
}

}  // namespace tanbo_server::engine::bots
