#include "server/bots/pool.hpp"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <stdexcept>

#include "server/metrics/metrics.hpp"

namespace tanbo_server::server {

namespace bots = engine::bots;

BotPool::BotPool(BotPoolOptions options) : options_(options) {
  bots::BotConfig config;
  config.budget = options_.budget;
  for (bots::Level l : bots::kLevels) bots_.push_back(bots::make_bot(l, config));
  // R1: a bot's generator owes nothing to any room's: its seeds come from the OS.
  if (RAND_bytes(reinterpret_cast<unsigned char*>(&seed_base_), sizeof seed_base_) != 1)
    throw std::runtime_error("RAND_bytes failed");
  for (unsigned i = 0; i < std::max(1u, options_.threads); ++i)
    threads_.emplace_back([this] { work(); });
}

BotPool::~BotPool() { shutdown(); }

void BotPool::submit(BotRequest request) {
  {
    std::lock_guard lock(mutex_);
    if (!closed_) {
      queue_.push_back(std::move(request));
      wake_.notify_one();
      return;
    }
  }
  request.done(nullptr);
}

void BotPool::shutdown() {
  {
    std::lock_guard lock(mutex_);
    if (closed_ && threads_.empty()) return;
    closed_ = true;
  }
  stop_.store(true, std::memory_order_relaxed);
  wake_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void BotPool::work() {
  for (;;) {
    BotRequest r;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return closed_ || !queue_.empty(); });
      if (queue_.empty()) return;  // closed, and everything queued answered
      r = std::move(queue_.front());
      queue_.pop_front();
    }
    decide(r);
  }
}

void BotPool::decide(BotRequest& r) {
  engine::Json answer;
  try {
    engine::FastRng rng(seed_base_ ^ (asked_.fetch_add(1, std::memory_order_relaxed) + 1) *
                                         0x9E3779B97F4A7C15ull);
    const bots::Deadline deadline{r.deadline, &stop_};
    const auto asked = metrics::Clock::now();
    engine::Action a = bots_[std::size_t(r.level)]->choose(*r.game, r.seat, deadline, rng);
    // The choice alone: the time queued behind other rooms' questions is not the bot's.
    metrics::observe_bot_decision(metrics::Clock::now() - asked);
    answer = r.game->action_json(a);
    decisions_.fetch_add(1, std::memory_order_relaxed);
  } catch (const std::exception& e) {  // a position the bot cannot be asked about: never expected
    spdlog::error("bot {} for seat {}: {}", bots::to_string(r.level), r.seat, e.what());
  }
  r.game.reset();
  r.done(std::move(answer));
}

}  // namespace tanbo_server::server
