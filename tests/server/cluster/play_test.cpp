// Games across three nodes sharing one Redis and one PostgreSQL, all real processes on loopback:
// each room's members spread over the nodes (so most of them reach it through another node),
// a node killed mid-game, one stopped cleanly, and Redis restarted mid-game
// (docs/operations.md, "Cluster (Redis)").
#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <set>
#include <thread>

#include "tests/server/cluster/cluster_games.hpp"
#include "tests/server/cluster/three_nodes.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::test;
using namespace tanbo_server::server::test::cluster_games;
using namespace std::chrono_literals;
using nlohmann::json;
using tanbo_server::server::store::testing::PgCluster;

TEST_CASE("30 games with their members spread over three nodes", "[cluster]") {
  auto c = start_cluster();
  if (!c) return;
  std::vector<Game> games(30);
  for (std::size_t i = 0; i < games.size(); ++i) games[i].home = i;
  run_all(games, [&](Game& g, unsigned seed) { run_game(g, *c, seed, false); });

  std::set<std::string> owners;
  for (std::size_t i = 0; i < games.size(); ++i) {
    const auto& g = games[i];
    CAPTURE(i, g.room);
    REQUIRE(g.failure == "");
    // Every member, wherever it is connected, read the same versions in the same order: each
    // one, from the start of the game to its end.
    const auto& reference = g.members[1].versions;
    REQUIRE(reference.size() > 2);
    for (std::size_t v = 1; v < reference.size(); ++v) CHECK(reference[v] == reference[v - 1] + 1);
    CHECK(reference.back() == g.final_state.at("version"));
    for (const auto& m : g.members) {
      std::vector<std::uint64_t> seen;
      for (auto v : m.versions)
        if (v >= reference.front()) seen.push_back(v);
      CHECK(seen == reference);
    }
    check_record(g, c->port_of(i + 1));
  }
  // The rooms were spread: each node ran some (the creator's), and most members were elsewhere.
  auto lobby = get_json(c->ports[0], "/api/rooms");
  for (const auto& r : lobby.at("rooms")) owners.insert(r.at("node").get<std::string>());
  CHECK(owners == std::set<std::string>{"n0", "n1", "n2"});
  // And the other nodes' traffic went through Redis, as /metrics counts it.
  auto metrics = http_get(c->ports[1], "/metrics").body;
  CHECK(metrics.find("tanbo_cluster_messages_total{kind=\"forwarded\"} 0\n") == std::string::npos);
  CHECK(metrics.find("tanbo_cluster_messages_total{kind=\"served\"}") != std::string::npos);
}

namespace {

// Games homed on `home(i)` play with a pause after each act (so they are mid-game when the test
// strikes); once each has made `before` acts, `strike` runs on the test's thread.
void play_through(Cluster& c, std::vector<Game>& games, int before,
                  const std::function<void()>& strike) {
  std::vector<std::atomic<int>> acts(games.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < games.size(); ++i)
    threads.emplace_back([&, i] {
      run_game(games[i], c, unsigned(i + 1), true, [&acts, i] {
        ++acts[i];
        std::this_thread::sleep_for(100ms);
      });
      acts[i] = 1 << 20;  // over, one way or the other
    });
  auto deadline = Clock::now() + 60s;
  auto ready = [&] {
    for (std::size_t i = 0; i < games.size(); ++i)
      if (acts[i] < before) return false;
    return true;
  };
  while (!ready() && Clock::now() < deadline) std::this_thread::sleep_for(20ms);
  strike();
  for (auto& t : threads) t.join();
}

// Polls until every room's owner key names a node other than `gone`; how long that took.
std::optional<std::chrono::milliseconds> owned_again(const Cluster& c,
                                                     const std::vector<Game>& games,
                                                     const std::string& gone,
                                                     std::chrono::milliseconds limit) {
  auto start = Clock::now();
  while (Clock::now() - start < limit) {
    bool all = true;
    for (const auto& g : games) {
      auto owner = c.owner(g.room);
      all = all && !owner.empty() && owner != gone;
    }
    if (all) return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("kill -9 of the node running 10 rooms: they move and their games finish", "[cluster]") {
  auto c = start_cluster();
  if (!c) return;
  std::vector<Game> games(10);  // all created on n0; each has a member on n1 and one on n2
  std::optional<std::chrono::milliseconds> took;
  play_through(*c, games, 5, [&] {
    c->nodes[0]->kill();
    c->dead = 0;
    took = owned_again(*c, games, "n0", kLease + 5s);
  });
  REQUIRE(took);  // within the lease and 5 s
  INFO("every room owned again " << took->count() << " ms after the kill");
  for (const auto& g : games) CHECK(!g.losses.empty());
  check_games(*c, games, 1);
}

TEST_CASE("a node stopped cleanly hands its rooms over without waiting for its lease",
          "[cluster]") {
  constexpr auto kLongLease = 20s;
  auto c = start_cluster(kLongLease);
  if (!c) return;
  std::vector<Game> games(6);
  std::optional<std::chrono::milliseconds> took;
  play_through(*c, games, 5, [&] {
    auto start = Clock::now();
    CHECK(c->nodes[0]->terminate() == std::optional<int>(0));
    c->dead = 0;
    took = owned_again(*c, games, "n0", 5s);
    if (took) *took += std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
  });
  REQUIRE(took);
  CHECK(*took < kLongLease / 2);
  for (const auto& g : games) CHECK(!g.losses.empty());
  check_games(*c, games, 1);
}

TEST_CASE("Redis restarted mid-game: the nodes reconnect and every game goes on", "[cluster]") {
  auto c = start_cluster();
  if (!c) return;
  std::vector<Game> games(6);
  for (std::size_t i = 0; i < games.size(); ++i) games[i].home = i;
  play_through(*c, games, 5, [&] { c->redis->restart(); });
  check_games(*c, games, 2);
  // Nobody took a room over: each is still run by the node it was created on.
  const std::vector<std::string> ids{"n0", "n1", "n2"};
  for (std::size_t i = 0; i < games.size(); ++i) CHECK(c->owner(games[i].room) == ids[i % 3]);
  // Each node registered again.
  for (const auto& id : ids)
    CHECK(c->redis->command({"EXISTS", "tanbo:node:" + id}).integer() == 1);
}

TEST_CASE("Redis frozen 10 s mid-game: every client is told, none waits in silence", "[cluster]") {
  // A lease longer than the freeze: here no room changes hands (that is fencing's test), and
  // what is lost is only what crossed between nodes.
  auto c = start_cluster(15s);
  if (!c) return;
  std::vector<Game> games(6);
  for (std::size_t i = 0; i < games.size(); ++i) {
    games[i].home = i;
    // Longer than the freeze: a client left waiting for a state lost on the way would still
    // be waiting when Redis wakes, and only its own patience would end the wait.
    games[i].patience = 20s;
  }
  play_through(*c, games, 5, [&] {
    c->redis->freeze();
    std::this_thread::sleep_for(10s);
    c->redis->thaw();
  });
  check_games(*c, games, 2);
  int losses = 0;
  for (const auto& g : games) {
    CAPTURE(g.room, g.why);
    CHECK(g.silences == 0);
    losses += int(g.losses.size());
  }
  CHECK(losses > 0);  // the freeze struck mid-game
  // The nodes saw the loss and reset the links it struck, as /metrics counts it.
  double resets = 0;
  for (auto port : c->ports) {
    const std::string metrics = http_get(port, "/metrics").body;
    const std::string key = "tanbo_cluster_messages_total{kind=\"link_reset\"} ";
    if (auto at = metrics.find(key); at != std::string::npos)
      resets += std::stod(metrics.substr(at + key.size()));
  }
  CHECK(resets > 0);
}

TEST_CASE("a challenge crossing nodes while Redis is frozen is unknown_outcome, not offline",
          "[cluster]") {
  // The node asks Redis where the player is; with no answer it cannot tell, and says so.
  auto c = start_cluster(15s);
  if (!c) return;
  ProtocolClient there(c->ports[0]), here(c->ports[1]);
  const std::string ada = there.hello("Ada").at("player").at("id");
  here.hello("Ben");
  c->redis->freeze();
  here.send({{"type", "challenge"}, {"id", 1}, {"player", ada}, {"game", "tsoro"}});
  json answer = here.next_but_states();
  c->redis->thaw();
  INFO(answer.dump());
  CHECK(answer.at("type") == "error");
  CHECK(answer.at("code") == "unknown_outcome");  // Ada is connected: player_offline would lie
  CHECK(answer.at("re") == 1);
}

TEST_CASE("moves that reach a room through another node never spend that node's rate limit",
          "[cluster][limits]") {
  // Five messages, then one a second: any move charged would soon be refused.
  auto c = start_cluster(kLease, {"--rate", "1", "--rate-burst", "5"});
  if (!c) return;
  Game g;
  g.game = "tsoro";
  set_up(g, *c);  // seat 0 on node 0, where the room is; seat 1 on node 1, forwarded
  REQUIRE(c->owner(g.room) == "n0");
  // Reads until the state of `version` (and, for the mover, the ok of request `id`).
  auto settle = [](Member& m, std::uint64_t version, int id) {
    bool state = false, ok = id < 0;
    while (!state || !ok) {
      auto msg = m.client->next();
      INFO(m.name << ": " << msg.dump());
      if (msg.at("type") == "state") {
        m.last = msg;
        state = state || msg.at("version") >= version;
      } else {
        REQUIRE(msg.at("type") == "ok");  // never rate_limited
        CHECK(msg.at("re") == id);
        ok = true;
      }
    }
  };
  std::uint64_t v = g.acked;
  int moves = 0, forwarded = 0;
  while (moves < 40 && g.members[2].last.at("status") == "playing") {
    int seat = g.members[2].last.at("pending").at("seat");
    Member& mover = g.members[std::size_t(seat)];
    mover.client->send({{"type", "act"},
                        {"id", moves},
                        {"room", g.room},
                        {"version", v},
                        {"action", mover.last.at("legal").at(0)}});
    ++v;
    for (auto& m : g.members) settle(m, v, &m == &mover ? moves : -1);
    forwarded += seat == 1;
    ++moves;
  }
  CHECK(forwarded > 5);
}
