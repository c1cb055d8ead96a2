// Games across three nodes sharing one Redis and one PostgreSQL, all real processes on loopback:
// each room's members spread over the nodes (so most of them reach it through another node),
// a node killed mid-game, one stopped cleanly, and Redis restarted mid-game
// (docs/operations.md, "Cluster (Redis)").
#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <set>
#include <thread>

#include "tests/server/cluster/three_nodes.hpp"
#include "tests/server/store/support.hpp"
#include "tests/server/support/replay_check.hpp"

using namespace tanbo::server::test;
using namespace std::chrono_literals;
using nlohmann::json;
using tanbo::server::store::testing::PgCluster;
using Clock = std::chrono::steady_clock;

namespace {

// One member of a room: a player (seat >= 0) or a spectator, on some node.
struct Member {
  std::string name, token, id;
  int seat = -1;
  std::size_t node = 0;  // the node it is connected to (an index)
  std::unique_ptr<ProtocolClient> client;
  std::vector<std::uint64_t> versions;  // the versions of the states it read, each once
  json last;
};

// One game, played by its own thread: seat 0 creates on node `home`, seat 1 joins on the next,
// the spectator watches on the one after.
struct Game {
  std::string room;
  std::size_t home = 0;
  std::vector<Member> members;  // seat 0, seat 1, the spectator
  std::uint64_t acked = 0;      // the highest version any member read
  bool in_flight = false;       // an act sent, its state not yet read by every member
  // Each time its connections were lost: what had been read, and where the room came back.
  struct Loss {
    std::uint64_t acked = 0;
    bool in_flight = false;
    std::uint64_t after = 0;
  };
  std::vector<Loss> losses;
  // How long a member waits for a message before it counts the server silent; and the losses
  // that were such silences, rather than a close or an error the server sent.
  std::chrono::milliseconds patience = kClientTimeout;
  int silences = 0;
  std::string why;  // what ended each lost connection, one line each
  json final_state;
  std::string failure;  // set by the thread: Catch2 is not thread-safe
};

json read_state(Member& m, std::uint64_t at_least) {
  for (;;) {
    json msg;
    try {
      msg = m.client->next();
    } catch (const std::exception& e) {
      throw std::runtime_error(m.name + " on node " + std::to_string(m.node % 3) +
                               ", waiting for " + std::to_string(at_least) + ": " + e.what());
    }
    if (msg.at("type") == "error") throw std::runtime_error(m.name + ": " + msg.dump());
    if (msg.at("type") != "state") continue;
    std::uint64_t v = msg.at("version");
    if (m.versions.empty() || m.versions.back() != v) m.versions.push_back(v);
    m.last = msg;
    if (v >= at_least) return msg;
  }
}

void connect(Member& m, std::uint16_t port, std::chrono::milliseconds patience) {
  m.client = std::make_unique<ProtocolClient>(port);
  m.client->ws().set_timeout(patience);
  auto w = m.client->hello(m.token.empty() ? m.name : "", m.token);
  if (m.token.empty()) {
    m.token = w.at("token");
    m.id = w.at("player").at("id");
  } else if (w.at("player").at("id") != m.id) {
    throw std::runtime_error("the token brought another identity: " + w.dump());
  }
}

json join_message(const Game& g, const Member& m) {
  return {{"type", "join"}, {"room", g.room}, {"as", m.seat >= 0 ? "player" : "spectator"}};
}

void set_up(Game& g, const Cluster& c, const std::string& game = "mancala-simple") {
  for (int i = 0; i < 3; ++i) {
    Member m;
    m.seat = i < 2 ? i : -1;
    m.name = i < 2 ? "Seat " + std::to_string(i) : "Watcher";
    m.node = g.home + std::size_t(i);
    connect(m, c.port_of(m.node), g.patience);
    g.members.push_back(std::move(m));
  }
  auto& creator = g.members[0];
  creator.client->send({{"type", "create"}, {"id", "c"}, {"game", game}});
  g.room = creator.client->expect("created").at("room");
  read_state(creator, 0);
  for (std::size_t i = 1; i < 3; ++i) g.members[i].client->send(join_message(g, g.members[i]));
  for (auto& m : g.members)
    g.acked = std::max<std::uint64_t>(g.acked, read_state(m, 1).at("version"));
}

// Each member connects again (to a live node, the next one round) and joins: as after any loss
// of its connection. A room between owners answers no_such_room or internal meanwhile: retried.
void rejoin(Game& g, const Cluster& c, std::chrono::seconds limit) {
  auto deadline = Clock::now() + limit;
  for (auto& m : g.members) {
    for (int attempt = 0;; ++attempt) {
      try {
        m.node = m.node + 1;
        connect(m, c.live_port(m.node), g.patience);
        m.client->send(join_message(g, m));
        read_state(m, 0);
        break;
      } catch (const std::exception& e) {
        if (Clock::now() > deadline)
          throw std::runtime_error("no way back into " + g.room + ": " + e.what());
        std::this_thread::sleep_for(200ms);
      }
    }
  }
  // Each join refreshed the seats (connected): read on until every member holds the newest.
  std::uint64_t v = 0;
  for (auto& m : g.members) v = std::max<std::uint64_t>(v, m.last.at("version"));
  for (auto& m : g.members)
    if (m.last.at("version") != v) read_state(m, v);
}

// Random legal actions until the end; throws when a connection is lost.
void play(Game& g, std::mt19937& rng, const std::function<void()>& after_act) {
  for (;;) {
    const json& now = g.members[0].last;
    if (now.at("status") == "finished") return void(g.final_state = now);
    std::uint64_t v = now.at("version");
    Member* mover = nullptr;
    for (auto& m : g.members)
      if (m.seat >= 0 && m.last.contains("legal") && m.last.at("version") == v) mover = &m;
    if (!mover)
      throw std::runtime_error("nobody holds a legal list at version " + std::to_string(v));
    const json& legal = mover->last.at("legal");
    json action = legal.at(std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng));
    g.in_flight = true;
    mover->client->send({{"type", "act"}, {"room", g.room}, {"version", v}, {"action", action}});
    // The mover first: the one who asked is the one owed an answer (a state, or an error that
    // says the act may not have landed); the others wait only for a state that was sent.
    g.acked = std::max<std::uint64_t>(g.acked, read_state(*mover, v + 1).at("version"));
    for (auto& m : g.members)
      if (&m != mover)
        g.acked = std::max<std::uint64_t>(g.acked, read_state(m, v + 1).at("version"));
    g.in_flight = false;
    if (after_act) after_act();
  }
}

// Plays `g` to its end; after a lost connection (when `losses_expected`) everyone rejoins. A
// client may lose its way more than once while its room moves (a join that reached the old node
// as it stopped): three times at most.
void run_game(Game& g, const Cluster& c, unsigned seed, bool losses_expected,
              const std::function<void()>& after_act = {}) {
  std::mt19937 rng(seed);
  try {
    set_up(g, c);
    for (;;) {
      try {
        play(g, rng, after_act);
        return;
      } catch (const std::exception& e) {
        if (!losses_expected || g.losses.size() == 3) throw;
        if (std::string_view(e.what()).find("timeout") != std::string_view::npos) ++g.silences;
        g.why += std::string(e.what()) + "\n";
        g.losses.push_back({g.acked, g.in_flight});
        g.in_flight = false;
        rejoin(g, c, 30s);
        g.losses.back().after = g.members[0].last.at("version");
      }
    }
  } catch (const std::exception& e) {
    g.failure = e.what();
  }
}

// The game's record, from any node (the store is shared), replays to what the players saw.
void check_record(const Game& g, std::uint16_t port) {
  CAPTURE(g.room);
  json record = get_json(port, "/api/games/" + g.room + "-1");
  REQUIRE(record.at("status") == "finished");
  check_replays_to(record, g.final_state);
}

// No acknowledged action lost: the room came back at the version its members last read (or
// one on, when an act was in flight and landed without its broadcast).
void check_nothing_lost(const Game& g) {
  for (const auto& loss : g.losses) {
    CAPTURE(g.room, loss.acked, loss.in_flight, loss.after);
    if (loss.in_flight)
      CHECK((loss.after == loss.acked || loss.after == loss.acked + 1));
    else
      CHECK(loss.after == loss.acked);
  }
}

void run_all(std::vector<Game>& games, const std::function<void(Game&, unsigned)>& body) {
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < games.size(); ++i)
    threads.emplace_back([&, i] { body(games[i], unsigned(i + 1)); });
  for (auto& t : threads) t.join();
}

}  // namespace

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

void check_games(const Cluster& c, const std::vector<Game>& games, std::size_t record_node) {
  for (const auto& g : games) {
    CAPTURE(g.room, g.losses.size());
    REQUIRE(g.failure == "");
    REQUIRE(g.final_state.at("status") == "finished");
    check_nothing_lost(g);
    check_record(g, c.port_of(record_node));
  }
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

TEST_CASE("moves that reach a room through another node never spend that node's rate limit",
          "[cluster][limits]") {
  // Five messages, then one a second: any move charged would soon be refused.
  auto c = start_cluster(kLease, {"--rate", "1", "--rate-burst", "5"});
  if (!c) return;
  Game g;
  set_up(g, *c, "tsoro");  // seat 0 on node 0, where the room is; seat 1 on node 1, forwarded
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
