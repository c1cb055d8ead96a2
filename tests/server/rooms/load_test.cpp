#include <catch2/catch.hpp>

#include <mutex>
#include <thread>

#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

constexpr int kRooms = 50;
constexpr int kActsBeforeResign = 150;  // keeps the test short under sanitizers

// One room with two players and two spectators, played to the end; throws on any anomaly.
void play_room(std::uint16_t port, const std::string& game, std::uint64_t seed) {
  Table t = Table::seat(port, game, 2, 2);
  engine::FastRng pick(seed);
  int acts = 0;
  while (t.state.at("status") == "playing") {
    std::uint64_t v = t.state.at("version");
    int seat = t.deciding();
    if (acts++ >= kActsBeforeResign) {
      t.at(0).send({{"type", "resign"}, {"room", t.room}});
    } else {
      const json& legal = t.seen[std::size_t(seat)].at("legal");
      t.at(seat).send({{"type", "act"},
                       {"room", t.room},
                       {"version", v},
                       {"action", legal[pick.below(std::uint32_t(legal.size()))]}});
    }
    t.read_states(v + 1);
  }
  if (t.state.at("status") != "finished" || !t.state.contains("seed"))
    throw std::runtime_error("the game did not finish: " + t.state.dump());
}

}  // namespace

TEST_CASE("200 clients in 50 rooms play to the end at once with no error",
          "[server][rooms][load]") {
  Config c = rooms_config();
  c.threads = 2;
  RoomsServer fx(c);
  auto games = engine::all_games();
  std::mutex mutex;
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int r = 0; r < kRooms; ++r) {
    threads.emplace_back([&, r] {
      try {
        play_room(fx.port(), games[std::size_t(r) % games.size()]->id, std::uint64_t(r) + 1);
      } catch (const std::exception& e) {
        std::lock_guard lock(mutex);
        failures.push_back(e.what());
      }
    });
  }
  for (auto& th : threads) th.join();
  INFO((failures.empty() ? std::string() : failures.front()));
  CHECK(failures.empty());
  CHECK(fx.server.server.context().counters.ws_opened.load() == 4 * kRooms);
}
