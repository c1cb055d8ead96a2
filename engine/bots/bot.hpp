#pragma once
// CPU players over the engine interface, at three levels: `random` (uniform over the legal list),
// `greedy` (one ply, judged by the game's evaluation) and `mcts` (UCT with random playouts). A bot
// sees only what a player sees: the game it is handed, never the room's generator. Every random
// choice it makes, and every draw the game makes inside its search, comes from the FastRng the
// caller passes, so a bot never learns a future draw (R1).
//
// Threads: choose() is const and keeps its search in locals, so one Bot may serve many threads at
// once, each call with its own game (a clone the caller owns for the call) and its own FastRng. A
// caller bounds a decision with a Deadline (a time point and an optional stop flag another thread
// may raise); the search checks it every iteration and answers with its best so far. Bots are
// the one part of the engine that reads a clock (steady_clock, for budgets only).
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "engine/core/game.hpp"

namespace tanbo_server::engine::bots {

enum class Level : std::uint8_t { random, greedy, mcts };
inline constexpr Level kLevels[] = {Level::random, Level::greedy, Level::mcts};
std::string_view to_string(Level level);
std::optional<Level> level_from(std::string_view name);

using Clock = std::chrono::steady_clock;

// When a decision must be made: at `at`, or as soon as *stop is true, whichever comes first.
struct Deadline {
  Clock::time_point at = Clock::time_point::max();
  const std::atomic<bool>* stop = nullptr;

  static Deadline after(Clock::duration d, const std::atomic<bool>* stop = nullptr) {
    return {Clock::now() + d, stop};
  }
  bool passed() const {
    return (stop && stop->load(std::memory_order_relaxed)) || Clock::now() >= at;
  }
};

struct BotConfig {
  // mcts: thinking time per decision; 0 leaves only the playout cap and the Deadline.
  std::chrono::milliseconds budget{300};
  // mcts: playouts per decision at most (at least 1).
  std::uint32_t playouts = 100'000;
  // mcts: UCT exploration constant; rewards are in [0, 1].
  double exploration = 0.7;
  // mcts: choices a playout makes before the evaluation judges it (who is ahead wins); 0 plays
  // every playout to the end of the game; unset, the game's own (playout_depth_for).
  std::optional<std::uint32_t> playout_depth;
  // mcts: a playout still going after this many decisions is scored as a draw.
  std::uint32_t playout_limit = 5000;
};

class Bot {
 public:
  virtual ~Bot() = default;
  virtual Level level() const = 0;
  // One of game.legal_actions(), chosen for `seat`. Precondition: the game is not finished and
  // `seat` is its pending seat (else std::logic_error). A one-action list is answered at once.
  virtual Action choose(const Game& game, Seat seat, const Deadline& deadline,
                        FastRng& rng) const = 0;
};

std::unique_ptr<Bot> make_bot(Level level, const BotConfig& config = {});

}  // namespace tanbo_server::engine::bots
