// THE recovery test: 20 games over real sockets, kill -9 of the server mid-game, a restart on
// the same data directory, and every game played to its end from where the clients left it.
#include <catch2/catch.hpp>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/eventually.hpp"
#include "tests/server/support/replay_check.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

struct Player {
  std::unique_ptr<ProtocolClient> client;
  std::string token, id;
  int seat = 0;
  json last;  // the latest state this seat read
};

// One game, driven by one thread: two seats choosing random legal actions.
struct Game {
  std::string game, room;
  std::vector<Player> players;
  std::uint64_t seen = 0;  // the highest version any of its clients saw acknowledged
  bool in_flight = false;  // an act was sent and not yet acknowledged to every seat
  bool finished_before_kill = false;
  std::uint64_t seen_at_kill = 0;
  bool in_flight_at_kill = false;
  std::uint64_t version_after_restart = 0;
  json final_state;
  std::string failure;  // set by the thread: Catch2 is not thread-safe
};

// What the threads and the test share across the kill.
struct Stage {
  std::mutex mutex;
  std::condition_variable cv;
  int parked = 0;          // threads that lost the server (or finished) before the restart
  std::uint16_t port = 0;  // the restarted server's; 0 before
  std::atomic<int> actions{0};
  std::atomic<int> started{0};       // games whose two seats are in their room
  std::atomic<int> failed_early{0};  // games that failed with the server still up
  std::atomic<bool> killed{false};   // set before the kill: a failure after it is expected
};

void see(Game& g, Player& p, const json& state) {
  p.last = state;
  g.seen = std::max(g.seen, state.at("version").get<std::uint64_t>());
}

// Plays until the end; throws when the connection is lost.
void play(Game& g, std::mt19937& rng, Stage& stage) {
  for (;;) {
    const json& now = g.players[0].last;
    if (now.at("status") == "finished") return void(g.final_state = now);
    std::uint64_t v = now.at("version");
    Player* mover = nullptr;
    for (auto& p : g.players)
      if (p.last.contains("legal") && p.last.at("version") == v) mover = &p;
    if (!mover)
      throw std::runtime_error("nobody holds a legal list at version " + std::to_string(v));
    const json& legal = mover->last.at("legal");
    json action = legal.at(std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng));
    g.in_flight = true;
    mover->client->send({{"type", "act"}, {"room", g.room}, {"version", v}, {"action", action}});
    for (auto& p : g.players) see(g, p, state_at(*p.client, v + 1));
    g.in_flight = false;
    ++stage.actions;
  }
}

void start(Game& g, std::uint16_t port) {
  for (int s = 0; s < 2; ++s) {
    Player p;
    p.seat = s;
    p.client = std::make_unique<ProtocolClient>(port);
    auto w = p.client->hello("Seat " + std::to_string(s));
    p.token = w.at("token");
    p.id = w.at("player").at("id");
    g.players.push_back(std::move(p));
  }
  auto& c0 = *g.players[0].client;
  c0.send({{"type", "create"}, {"id", "c"}, {"game", g.game}, {"options", json::object()}});
  g.room = c0.expect("created").at("room");
  state_at(c0, 0);
  g.players[1].client->send({{"type", "join"}, {"room", g.room}, {"as", "player"}});
  for (auto& p : g.players) see(g, p, state_at(*p.client, 1));
}

// After the restart: the token brings the identity and its seat back, the room its version.
void reconnect(Game& g, std::uint16_t port) {
  for (auto& p : g.players) {
    p.client = std::make_unique<ProtocolClient>(port);
    auto w = p.client->hello("", p.token);
    if (w.at("player").at("id") != p.id) throw std::runtime_error("another identity: " + w.dump());
    const auto& seats = w.at("seats");
    if (std::count(seats.begin(), seats.end(), json{{"room", g.room}, {"seat", p.seat}}) != 1)
      throw std::runtime_error("welcome lists no seat " + std::to_string(p.seat) + " in " + g.room +
                               ": " + w.dump());
    p.client->send({{"type", "join"}, {"room", g.room}, {"as", "player"}});
    p.last = state_at(*p.client, 0);
  }
  // The second join also refreshed the first seat (connected): read it so both agree.
  g.players[0].last = state_at(*g.players[0].client, g.players[1].last.at("version"));
  g.version_after_restart = g.players[1].last.at("version");
  for (auto& p : g.players) see(g, p, p.last);
}

void run(Game& g, Stage& stage, std::uint16_t port, unsigned seed) {
  std::mt19937 rng(seed);
  try {
    start(g, port);
    ++stage.started;
    play(g, rng, stage);
    g.finished_before_kill = true;
  } catch (const std::exception& e) {
    // The server is gone; anything before the kill is this game's failure.
    if (!stage.killed) {
      g.failure = g.game + " " + g.room + ", before the kill: " + e.what();
      ++stage.failed_early;
    }
  }
  g.seen_at_kill = g.seen;
  g.in_flight_at_kill = g.in_flight;
  std::unique_lock lock(stage.mutex);
  ++stage.parked;
  stage.cv.notify_all();
  stage.cv.wait(lock, [&] { return stage.port != 0; });
  std::uint16_t again = stage.port;
  lock.unlock();
  if (g.finished_before_kill || !g.failure.empty()) return;
  try {
    if (g.room.empty()) throw std::runtime_error("the room was never created");
    reconnect(g, again);
    play(g, rng, stage);
  } catch (const std::exception& e) {
    g.failure = g.game + " " + g.room + ": " + e.what();
  }
}

}  // namespace

TEST_CASE("kill -9 mid-game: every room comes back at the version its clients saw and plays on",
          "[persist][recovery][crash]") {
  DataDir dir;
  auto server = std::make_unique<ServerProcess>(dir);
  const std::vector<std::string> kinds{"tanbo", "steere-tanbo", "mancala-simple", "tsoro"};
  std::vector<Game> games(20);
  for (std::size_t i = 0; i < games.size(); ++i) games[i].game = kinds[i % kinds.size()];

  Stage stage;
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < games.size(); ++i)
    threads.emplace_back(run, std::ref(games[i]), std::ref(stage), server->port(),
                         unsigned(1000 + i));

  // Mid-game: every room seated, and moves enough that every room has some, short of most
  // games' end. The deadline is only for a server that stopped answering.
  const bool mid_game = eventually(
      [&] {
        return stage.failed_early > 0 ||
               (stage.started == int(games.size()) && stage.actions >= 600);
      },
      300s);
  stage.killed = true;
  server->kill();
  {
    std::unique_lock lock(stage.mutex);
    REQUIRE(stage.cv.wait_for(lock, 60s, [&] { return stage.parked == int(games.size()); }));
  }
  CHECK(mid_game);  // each game's failure, if any, is shown below (the threads wait for a port)
  CHECK(stage.failed_early == 0);
  int unfinished = 0;
  for (const auto& g : games) unfinished += !g.finished_before_kill;
  INFO(unfinished << " games were cut short");
  CHECK(unfinished >= 10);  // the kill came mid-game for most

  server = std::make_unique<ServerProcess>(dir);
  {
    std::lock_guard lock(stage.mutex);
    stage.port = server->port();
  }
  stage.cv.notify_all();
  for (auto& t : threads) t.join();

  for (auto& g : games) {
    CAPTURE(g.game, g.room);
    REQUIRE(g.failure.empty());
    REQUIRE(g.final_state.at("status") == "finished");
  }
  for (auto& g : games) {
    if (g.finished_before_kill) continue;
    CAPTURE(g.game, g.room, g.seen_at_kill, g.in_flight_at_kill, g.version_after_restart);
    // Durable before visible: nothing a client saw is lost; only the one act in flight may have
    // landed without its broadcast.
    if (g.in_flight_at_kill)
      CHECK((g.version_after_restart == g.seen_at_kill ||
             g.version_after_restart == g.seen_at_kill + 1));
    else
      CHECK(g.version_after_restart == g.seen_at_kill);
  }
  for (auto& g : games) {
    CAPTURE(g.game, g.room);
    json record = get_json(server->port(), "/api/games/" + g.room + "-1");
    CHECK(record.at("status") == "finished");
    check_replays_to(record, g.final_state);
  }
  CHECK(server->terminate() == std::optional<int>(0));
}
