// The chaos run: rooms of every game played across three nodes on one Redis and one PostgreSQL
// while faults strike one after another in a random order (Redis frozen, Redis stopped and started
// empty, PostgreSQL restarted, PostgreSQL down, a node frozen past its lease, a node killed and
// started again); then every game is played to its end and held against what its clients read:
// no acknowledged action lost, no refused action applied, the seed's commitment unchanged, the
// record replaying to the end the players saw. In the suite, a short run (every fault once);
// tests/server/cluster/chaos.sh runs the long one (docs/testing.md, "The chaos run").
//
// TANBO_CHAOS_SECONDS (default 0: one round of the faults), TANBO_CHAOS_ROOMS (default 8),
// TANBO_CHAOS_OUTAGE_MS (how long an outage lasts, default 5000), TANBO_CHAOS_SEED, and
// TANBO_CHAOS_LOGS: a directory where the nodes' logs and the faults' times are written.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include "tests/server/cluster/cluster_games.hpp"
#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using namespace tanbo_server::server::test::cluster_games;
using tanbo_server::server::store::testing::PgCluster;

namespace chaos_test {

long setting(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atol(v) : fallback;
}

const std::vector<std::string> kGames{"mancala-simple", "tsoro", "tanbo", "steere-tanbo"};

enum class Fault { redis_frozen, redis_stopped, pg_restarted, pg_down, node_frozen, node_killed };

const char* name_of(Fault f) {
  switch (f) {
    case Fault::redis_frozen:
      return "redis_frozen";
    case Fault::redis_stopped:
      return "redis_stopped_empty";
    case Fault::pg_restarted:
      return "postgres_restarted";
    case Fault::pg_down:
      return "postgres_down";
    case Fault::node_frozen:
      return "node_frozen_past_lease";
    case Fault::node_killed:
      return "node_killed_and_restarted";
  }
  return "";
}

// Runs `f` on the cluster: each fault ends with the part it struck running again.
void strike(Cluster& c, Fault f, std::size_t node, std::chrono::milliseconds outage) {
  switch (f) {
    case Fault::redis_frozen:
      c.redis->freeze();
      std::this_thread::sleep_for(outage);
      c.redis->thaw();
      break;
    case Fault::redis_stopped:
      c.redis->down_for(outage);
      break;
    case Fault::pg_restarted:
      PgCluster::get().stop();
      PgCluster::get().start();
      break;
    case Fault::pg_down:
      PgCluster::get().stop();
      std::this_thread::sleep_for(outage);
      PgCluster::get().start();
      break;
    case Fault::node_frozen:
      REQUIRE(c.nodes[node]->process().freeze());
      std::this_thread::sleep_for(c.lease + 2s);
      c.nodes[node]->process().signal(SIGCONT);
      break;
    case Fault::node_killed:
      c.crash_and_restart(node);
      break;
  }
}

}  // namespace chaos_test

TEST_CASE("chaos: faults one after another while rooms play on three nodes", "[cluster][chaos]") {
  namespace ct = chaos_test;
  auto c = start_cluster();
  if (!c) return;
  const auto seconds = std::chrono::seconds(ct::setting("TANBO_CHAOS_SECONDS", 0));
  const auto outage = std::chrono::milliseconds(ct::setting("TANBO_CHAOS_OUTAGE_MS", 5000));
  const std::size_t slots = std::size_t(ct::setting("TANBO_CHAOS_ROOMS", 8));
  const unsigned seed = unsigned(ct::setting("TANBO_CHAOS_SEED", long(std::random_device{}())));
  INFO("TANBO_CHAOS_SEED=" << seed);

  const auto start = Clock::now();
  const auto since = [&] {  // seconds from the start
    return double(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start)
                      .count()) /
           1000.0;
  };

  // Each slot plays one game after another until the faults are over, then finishes its last.
  std::atomic<bool> over{false};
  std::vector<std::vector<Game>> played(slots);
  std::vector<std::thread> players;
  for (std::size_t s = 0; s < slots; ++s)
    players.emplace_back([&, s] {
      std::mt19937 rng(seed + unsigned(s) * 7919u);
      for (unsigned n = 0; n == 0 || !over; ++n) {
        Game& g = played[s].emplace_back();
        g.game = ct::kGames[(s + n) % ct::kGames.size()];
        g.home = s + n;
        g.max_losses = 40;
        g.rejoin_limit = 90s;
        g.calm = &over;
        g.patience = 10s;
        run_game(g, *c, rng(), true, [&rng] {
          std::this_thread::sleep_for(std::chrono::milliseconds(50 + rng() % 100));
        });
        if (!g.failure.empty()) {
          g.why += "failed at " + std::to_string(since()) + " s\n";
          break;
        }
      }
    });

  // The faults: rounds of all six in a random order, a quiet pause before each, until the time
  // is up (at least one round).
  std::mt19937 rng(seed);
  std::map<std::string, int> struck;
  std::ostringstream timeline;  // when each fault struck
  std::vector<ct::Fault> round{ct::Fault::redis_frozen, ct::Fault::redis_stopped,
                               ct::Fault::pg_restarted, ct::Fault::pg_down,
                               ct::Fault::node_frozen,  ct::Fault::node_killed};
  do {
    std::shuffle(round.begin(), round.end(), rng);
    for (auto f : round) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2000 + rng() % 3000));
      const std::size_t node = rng() % 3;
      timeline << since() << " s: " << ct::name_of(f) << " (n" << node << ")\n";
      ct::strike(*c, f, node, outage);
      timeline << since() << " s: over\n";
      ++struck[ct::name_of(f)];
    }
  } while (Clock::now() - start < seconds);
  std::this_thread::sleep_for(3s);  // the last fault's rooms settle while still played
  over = true;
  for (auto& t : players) t.join();

  // The figures, then the checks.
  std::size_t games = 0, actions = 0, losses = 0, refused = 0, silences = 0;
  std::map<std::string, int> errors;
  for (const auto& slot : played)
    for (const auto& g : slot) {
      ++games;
      losses += g.losses.size();
      silences += std::size_t(g.silences);
      for (const auto& l : g.losses) refused += l.refused.has_value();
      for (const auto& [code, n] : g.errors) errors[code] += n;
      if (g.final_state.is_object()) actions += g.final_state.at("version").get<std::size_t>();
    }
  std::ostringstream figures;
  figures << "chaos: seed " << seed << ", "
          << std::chrono::duration_cast<std::chrono::seconds>(Clock::now() - start).count()
          << " s, " << slots << " rooms at a time, " << games << " games, " << actions
          << " versions, " << losses << " lost connections (" << silences << " silences, "
          << refused << " refused acts)\nchaos: faults";
  for (const auto& [f, n] : struck) figures << " " << f << "=" << n;
  figures << "\nchaos: errors read";
  for (const auto& [code, n] : errors) figures << " " << code << "=" << n;
  // One error of each code read, as an example of where it comes from.
  std::map<std::string, std::string> examples;
  for (const auto& slot : played)
    for (const auto& g : slot)
      for (const auto& [code, line] : g.first_error) examples.try_emplace(code, line);
  for (const auto& [code, line] : examples) figures << "\nchaos: e.g. " << line;
  std::cout << figures.str() << std::endl;
  INFO(figures.str());
  if (const char* dir = std::getenv("TANBO_CHAOS_LOGS"); dir && *dir) {
    std::ofstream(std::string(dir) + "/faults.txt") << timeline.str();
    for (std::size_t n = 0; n < c->nodes.size(); ++n)
      std::ofstream(std::string(dir) + "/n" + std::to_string(n) + ".log")
          << c->nodes[n]->process().stderr_text();
    for (std::size_t k = 0; k < c->killed_logs.size(); ++k)
      std::ofstream(std::string(dir) + "/killed-" + std::to_string(k) + ".log")
          << c->killed_logs[k];
  }

  for (const auto& slot : played) {
    REQUIRE(!slot.empty());
    for (const auto& g : slot) {
      CAPTURE(g.game, g.room, g.why);
      REQUIRE(g.failure == "");
    }
    check_games(*c, slot, 0);
  }
  CHECK(struck.size() == 6);
}
