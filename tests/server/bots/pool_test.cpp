#include <catch2/catch.hpp>

#include <chrono>
#include <future>
#include <thread>

#include "engine/core/registry.hpp"
#include "server/bots/pool.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
namespace bots = tanbo_server::engine::bots;

namespace {

std::unique_ptr<engine::Game> start(const engine::GameInfo& info, std::string_view seed) {
  engine::Drbg rng(engine::seed_from_text(seed));
  auto created =
      engine::create_game(info.id, engine::Json::object(), nullptr, info.default_players, rng);
  REQUIRE(created.game);
  return std::move(created.game);
}

engine::Json legal_json(const engine::Game& g) {
  engine::ActionList legal;
  g.legal_actions(legal);
  engine::Json out = engine::Json::array();
  for (auto a : legal) out.push_back(g.action_json(a));
  return out;
}

struct Answer {
  engine::Json action;
  std::thread::id thread;
};

// Submits one decision and waits for its answer.
std::future<Answer> ask(BotPool& pool, const engine::Game& g, bots::Level level,
                        bots::Clock::duration within = std::chrono::seconds(5)) {
  auto promise = std::make_shared<std::promise<Answer>>();
  auto future = promise->get_future();
  BotRequest r;
  r.game = g.clone();
  r.seat = g.pending().seat;
  r.level = level;
  r.deadline = bots::Clock::now() + within;
  r.done = [promise](engine::Json a) {
    promise->set_value({std::move(a), std::this_thread::get_id()});
  };
  pool.submit(std::move(r));
  return future;
}

}  // namespace

TEST_CASE("the bot pool answers every level in every game with a legal action, on its own threads",
          "[cpu][bots][pool]") {
  BotPool pool({2, std::chrono::milliseconds(20)});
  for (const auto* info : engine::all_games()) {
    auto g = start(*info, info->id);
    const auto legal = legal_json(*g);
    for (bots::Level level : bots::kLevels) {
      DYNAMIC_SECTION(info->id << " at " << bots::to_string(level)) {
        auto answer = ask(pool, *g, level).get();
        CHECK(answer.thread != std::this_thread::get_id());
        REQUIRE_FALSE(answer.action.is_null());
        CHECK(std::find(legal.begin(), legal.end(), answer.action) != legal.end());
      }
    }
  }
}

TEST_CASE("a bot past its deadline answers its best so far, and shutdown ends a search at once",
          "[cpu][bots][pool]") {
  const auto* info = engine::find_game("tanbo");
  REQUIRE(info);
  auto g = start(*info, "deadline");
  const auto legal = legal_json(*g);

  SECTION("a deadline already passed still gets a legal answer") {
    BotPool pool({1, std::chrono::seconds(10)});
    auto answer = ask(pool, *g, bots::Level::mcts, std::chrono::milliseconds(0));
    REQUIRE(answer.wait_for(std::chrono::seconds(5)) == std::future_status::ready);
    CHECK(std::find(legal.begin(), legal.end(), answer.get().action) != legal.end());
  }
  SECTION("shutdown stops a long search; later requests are answered null at once") {
    BotPool pool({1, std::chrono::seconds(60)});
    auto answer = ask(pool, *g, bots::Level::mcts, std::chrono::seconds(60));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    auto t0 = std::chrono::steady_clock::now();
    pool.shutdown();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));
    REQUIRE(answer.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    CHECK(std::find(legal.begin(), legal.end(), answer.get().action) != legal.end());
    auto late = ask(pool, *g, bots::Level::random);
    REQUIRE(late.wait_for(std::chrono::seconds(0)) == std::future_status::ready);
    CHECK(late.get().action.is_null());
    CHECK(pool.decisions() == 1);
  }
}
