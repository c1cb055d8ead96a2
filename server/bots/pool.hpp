#pragma once
// CPU decisions on threads of their own, apart from the network's and the rooms': a room never
// blocks while a bot thinks. A room hands over a clone of its game, the seat, the level and a
// deadline; the answer (the action's JSON, as the legal list shows it) comes back through `done`
// on a pool thread, and the room posts it to its strand, where it meets the same checks as a
// person's `act`. Past its deadline a bot answers its best so far (engine Deadline); shutdown
// raises the stop flag, so a search in flight ends within one playout.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/bots/bot.hpp"
#include "engine/core/game.hpp"

namespace tanbo_server::server {

struct BotRequest {
  std::unique_ptr<engine::Game> game;  // the room's game, cloned: the pool's alone
  engine::Seat seat = engine::kNoSeat;
  engine::bots::Level level = engine::bots::Level::greedy;
  engine::bots::Clock::time_point deadline = engine::bots::Clock::time_point::max();
  // Runs exactly once, on a pool thread (or the caller's, after shutdown): the chosen action's
  // JSON, or null when no answer could be made (the pool stopped, the bot refused the position).
  std::function<void(engine::Json action)> done;
};

struct BotPoolOptions {
  unsigned threads = 1;
  std::chrono::milliseconds budget{300};  // mcts thinking time per decision
};

class BotPool {
 public:
  explicit BotPool(BotPoolOptions options);
  ~BotPool();  // shutdown()

  void submit(BotRequest request);
  // Raises the stop flag (queued and running decisions answer at once with their best so far),
  // then joins the threads. Later submissions are answered null at once. Idempotent.
  void shutdown();

  std::chrono::milliseconds budget() const { return options_.budget; }
  std::uint64_t decisions() const { return decisions_.load(std::memory_order_relaxed); }

 private:
  void work();
  void decide(BotRequest& r);

  BotPoolOptions options_;
  std::vector<std::unique_ptr<engine::bots::Bot>> bots_;  // one per Level, shared by the threads
  std::uint64_t seed_base_ = 0;
  std::atomic<std::uint64_t> asked_{0};
  std::atomic<std::uint64_t> decisions_{0};
  std::atomic<bool> stop_{false};

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<BotRequest> queue_;
  bool closed_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tanbo_server::server
