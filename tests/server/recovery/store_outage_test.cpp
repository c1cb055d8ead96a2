// Outages of the store with real processes: the single node on SQLite with its disk full (its
// data directory on a small tmpfs of its own, filled while rooms play, then freed), and a node on
// PostgreSQL stopped and started again. Meanwhile the move that met the outage is held (answered
// once stored), any other is refused store_unavailable, /healthz says degraded; once the store is
// back every room plays on by itself, with nothing acknowledged lost.
#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "tests/server/recovery/server_process.hpp"
#include "tests/server/store/support.hpp"
#include "tests/server/support/replay_check.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace store_outage {

// A tmpfs of `mib` MiB mounted for the test alone (root only: mount(2)).
struct SmallDisk {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("tanbo-disk-" + std::to_string(std::random_device{}()));
  bool mounted = false;
  explicit SmallDisk(int mib) {
    std::filesystem::create_directories(path);
    const std::string size = "size=" + std::to_string(mib) + "m";
    mounted = ::mount("tmpfs", path.c_str(), "tmpfs", 0, size.c_str()) == 0;
  }
  ~SmallDisk() {
    if (mounted) ::umount2(path.c_str(), MNT_DETACH);
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path filler() const { return path / "filler"; }
  // Writes until the disk is full.
  void fill() const {
    std::FILE* f = std::fopen(filler().c_str(), "wb");
    REQUIRE(f);
    std::vector<char> block(64 * 1024, 'x');
    while (std::fwrite(block.data(), 1, block.size(), f) == block.size()) {
    }
    std::fclose(f);  // its last block may not fit either
    std::vector<char> small(512, 'x');
    for (;;) {  // the last few blocks, down to nothing left
      std::FILE* g = std::fopen((path / ("crumb" + std::to_string(crumbs++))).c_str(), "wb");
      if (!g) break;
      const bool whole = std::fwrite(small.data(), 1, small.size(), g) == small.size();
      const bool closed = std::fclose(g) == 0;
      if (!whole || !closed) break;
    }
  }
  void free_space() const {
    std::error_code ec;
    std::filesystem::remove(filler(), ec);
    for (int i = 0; i < crumbs; ++i)
      std::filesystem::remove(path / ("crumb" + std::to_string(i)), ec);
  }
  mutable int crumbs = 0;
};

struct Seat {
  Guest guest;
  json last;  // the latest state this seat read
};

struct Game {
  std::string kind, room;
  std::vector<Seat> seats;
  std::uint64_t acked = 0;  // the highest version a mover was answered `ok` for
};

// Everything the connection got up to the answer to a ping: nothing waits for what never comes.
std::vector<json> pending(ProtocolClient& c) {
  static int n = 0;
  const std::string id = "probe" + std::to_string(++n);
  c.send({{"type", "ping"}, {"id", id}});
  std::vector<json> out;
  for (;;) {
    json m = c.next();
    if (m.at("type") == "pong" && m.at("re") == id) return out;
    out.push_back(std::move(m));
  }
}

Seat* mover(Game& g) {
  for (auto& s : g.seats)
    if (s.last.contains("legal") && s.last.at("version") == g.seats[0].last.at("version"))
      return &s;
  return nullptr;
}

// Every seat reads up to version `v`.
void catch_up(Game& g, std::uint64_t v) {
  for (auto& s : g.seats) s.last = state_at(*s.guest.client, v);
}

// One move by whoever must decide, answered `ok` once stored.
void play_one(Game& g, std::mt19937& rng) {
  Seat* m = mover(g);
  REQUIRE(m);
  const std::uint64_t v = m->last.at("version");
  const json& legal = m->last.at("legal");
  json action = legal.at(std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng));
  m->guest.client->send(
      {{"type", "act"}, {"id", "m"}, {"room", g.room}, {"version", v}, {"action", action}});
  catch_up(g, v + 1);
  g.acked = v + 1;
}

void start(Game& g, std::uint16_t port) {
  for (int s = 0; s < 2; ++s) g.seats.push_back({guest(port, "Seat " + std::to_string(s)), {}});
  auto& c0 = *g.seats[0].guest.client;
  c0.send({{"type", "create"}, {"id", "c"}, {"game", g.kind}, {"options", json::object()}});
  g.room = c0.expect("created").at("room");
  g.seats[1].guest.client->send({{"type", "join"}, {"room", g.room}, {"as", "player"}});
  catch_up(g, 1);
}

// The lines of `log` that hold `needle`.
std::size_t lines_with(const std::string& log, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = log.find(needle); at != std::string::npos; at = log.find(needle, at + 1)) ++n;
  return n;
}

// Stops the server; its log has one line per room for the outage, however many requests each
// refused.
void stop_and_read_log(ServerProcess& server, std::size_t rooms) {
  CHECK(server.terminate() == std::optional<int>(0));
  CHECK(lines_with(server.log(), "tries again until the store is back") == rooms);
  CHECK(lines_with(server.log(), "store: the database fails") == 1);
  CHECK(lines_with(server.log(), "store: the database works again") == 1);
}

int healthz(std::uint16_t port) { return int(http_get(port, "/healthz").status); }

double metric(std::uint16_t port, const std::string& name) {
  const auto text = http_get(port, "/metrics").body;
  const auto at = text.find("\n" + name + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + name.size() + 2));
}

// Four rooms play; `fault` makes the store fail, each room's mover asks for a move (held) and
// again (refused), `heal` brings the store back; then every held move is answered, /healthz is
// ok again, and every game plays to its end with its record holding every acknowledged move.
void outage(ServerProcess& server, const std::function<void()>& fault,
            const std::function<void()>& heal) {
  const auto port = server.port();
  std::mt19937 rng(46);
  const std::vector<std::string> kinds{"tanbo", "steere-tanbo", "mancala-simple", "tsoro"};
  std::vector<Game> games(4);
  for (std::size_t i = 0; i < games.size(); ++i) {
    games[i].kind = kinds[i];
    start(games[i], port);
    for (int k = 0; k < 4; ++k) play_one(games[i], rng);
  }
  REQUIRE(healthz(port) == 200);

  fault();
  // Each room's mover asks for a move the store cannot take: held, not shown, not answered.
  std::map<std::string, std::uint64_t> held;  // room -> the version the held move was made at
  for (auto& g : games) {
    Seat* m = mover(g);
    REQUIRE(m);
    const std::uint64_t v = m->last.at("version");
    const json action = m->last.at("legal").at(0);
    m->guest.client->send(
        {{"type", "act"}, {"id", "held"}, {"room", g.room}, {"version", v}, {"action", action}});
    held[g.room] = v;
  }
  // Asked again meanwhile, the room refuses at once: store_unavailable, nothing changed.
  std::size_t refused = 0;
  for (auto& g : games) {
    Seat* m = mover(g);
    const std::uint64_t v = held[g.room];
    // A pong may overtake the room's answer: an answer may come with the next probe's.
    bool refused_here = false;
    for (int tries = 0; tries < 100; ++tries) {
      m->guest.client->send({{"type", "act"},
                             {"id", "again"},
                             {"room", g.room},
                             {"version", v},
                             {"action", m->last.at("legal").at(0)}});
      bool answered = false;
      for (const auto& msg : pending(*m->guest.client)) {
        CAPTURE(g.room, msg);
        if (msg.at("type") == "state") CHECK(msg.at("version") == v);  // nothing unstored shown
        if (msg.value("re", json()) != "again") continue;
        answered = true;
        REQUIRE(msg.at("type") == "error");
        if (msg.at("code") == "store_unavailable")
          refused_here = true;
        else
          CHECK(msg.at("code") ==
                "stale_version");  // the held move was stored before the disk filled
      }
      if (answered) break;
      std::this_thread::sleep_for(20ms);
    }
    refused += refused_here;
  }
  CHECK(refused == games.size());
  CHECK(healthz(port) == 503);
  CHECK(metric(port, "tanbo_rooms_stalled") == double(games.size()));
  CHECK(metric(port, "tanbo_store_healthy") == 0);
  for (auto& g : games)  // nobody was told anything of the held moves
    for (auto& s : g.seats)
      for (const auto& msg : pending(*s.guest.client)) {
        CAPTURE(g.room, msg);
        CHECK(msg.value("re", json()) != "held");
        if (msg.at("type") == "state") CHECK(msg.at("version") == held[g.room]);
      }

  heal();
  // Each held move is stored with the rooms' next try, then answered and shown.
  for (auto& g : games) {
    CAPTURE(g.room);
    const std::uint64_t v = held[g.room];
    Seat* m = mover(g);
    json ok;
    for (int tries = 0; ok.is_null() && tries < 600; ++tries) {  // retries come 5 s apart at most
      for (auto& msg : pending(*m->guest.client)) {
        if (msg.at("type") == "state") m->last = msg;
        if (msg.value("re", json()) == "held") ok = msg;
      }
      if (ok.is_null()) std::this_thread::sleep_for(100ms);
    }
    REQUIRE(ok.is_object());
    CHECK(ok.at("type") == "ok");
    CHECK(ok.at("version") == v + 1);
    CHECK(m->last.at("version") == v + 1);  // its state came first
    for (auto& s : g.seats)
      if (&s != m) s.last = state_at(*s.guest.client, v + 1);
    g.acked = v + 1;
  }
  for (int tries = 0; healthz(port) != 200 && tries < 300; ++tries)
    std::this_thread::sleep_for(100ms);
  CHECK(healthz(port) == 200);
  CHECK(metric(port, "tanbo_rooms_stalled") == 0);
  CHECK(metric(port, "tanbo_store_healthy") == 1);

  // Every game plays to its end; the store's record of each holds every acknowledged move.
  for (auto& g : games) {
    while (g.seats[0].last.at("status") != "finished") play_one(g, rng);
    json record = get_json(port, "/api/games/" + g.room + "-1");
    CAPTURE(g.room);
    CHECK(record.at("status") == "finished");
    check_replays_to(record, g.seats[0].last);
  }
}

}  // namespace store_outage

TEST_CASE("SQLite on a full disk: moves refused or held, every room plays on once space is back",
          "[persist][outage][disk]") {
  if (::geteuid() != 0 &&
      tanbo_server::test::skip_missing("mounting the small tmpfs this test fills needs root"))
    return;
  store_outage::SmallDisk disk(64);
  REQUIRE(disk.mounted);
  DataDir dir{disk.path};
  ServerProcess server(dir);
  store_outage::outage(
      server, [&] { disk.fill(); }, [&] { disk.free_space(); });
  store_outage::stop_and_read_log(server, 4);
}

TEST_CASE("PostgreSQL out of reach for 10 s: moves refused or held, every room plays on after",
          "[persist][outage][postgres]") {
  using tanbo_server::server::store::testing::PgCluster,
      tanbo_server::server::store::testing::Backend,
      tanbo_server::server::store::testing::unavailable;
  if (unavailable(Backend::postgres)) return;
  DataDir dir;
  ServerProcess server(dir, {"--store", PgCluster::get().fresh_database()});
  std::chrono::steady_clock::time_point stopped;
  store_outage::outage(
      server,
      [&] {
        REQUIRE(PgCluster::get().stop());
        stopped = std::chrono::steady_clock::now();
      },
      [&] {
        std::this_thread::sleep_until(stopped + 10s);
        REQUIRE(PgCluster::get().start());
      });
  store_outage::stop_and_read_log(server, 4);
}

TEST_CASE("PostgreSQL restarted: the node connects again by itself and every room plays on",
          "[persist][outage][postgres]") {
  using tanbo_server::server::store::testing::PgCluster,
      tanbo_server::server::store::testing::Backend,
      tanbo_server::server::store::testing::unavailable;
  namespace so = store_outage;
  if (unavailable(Backend::postgres)) return;
  DataDir dir;
  ServerProcess server(dir, {"--store", PgCluster::get().fresh_database()});
  std::mt19937 rng(47);
  std::vector<so::Game> games(2);
  for (auto& g : games) {
    g.kind = "mancala-simple";
    so::start(g, server.port());
    for (int k = 0; k < 3; ++k) so::play_one(g, rng);
  }
  REQUIRE(PgCluster::get().stop());
  REQUIRE(PgCluster::get().start());
  // The first write meets the closed connection and is held; the next try connects again.
  for (auto& g : games) {
    while (g.seats[0].last.at("status") != "finished") so::play_one(g, rng);
    json record = get_json(server.port(), "/api/games/" + g.room + "-1");
    CAPTURE(g.room);
    check_replays_to(record, g.seats[0].last);
  }
  for (int tries = 0; so::healthz(server.port()) != 200 && tries < 300; ++tries)
    std::this_thread::sleep_for(100ms);
  CHECK(so::healthz(server.port()) == 200);
  CHECK(server.terminate() == std::optional<int>(0));
}

TEST_CASE("A database host that never answers: the server says so within seconds, not never",
          "[persist][outage][postgres]") {
  // A listener that takes connections and never says a word, as a host behind a dead proxy.
  const int silent = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(silent >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  REQUIRE(::bind(silent, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  REQUIRE(::listen(silent, 16) == 0);
  REQUIRE(::getsockname(silent, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  const std::string url =
      "postgresql://tanbo@127.0.0.1:" + std::to_string(ntohs(a.sin_port)) + "/tanbo";

  DataDir dir;
  ChildProcess server(TANBO_SERVER_BINARY, {"--bind", "127.0.0.1", "--port", "0", "--data-dir",
                                            dir.path.string(), "--store", url});
  // The default timeout is 5 s; a start that still waits at 20 s waits without end.
  const auto status = server.wait(std::chrono::seconds(20));
  ::close(silent);
  INFO(server.stderr_text());
  REQUIRE(status.has_value());
  CHECK(*status != 0);
  CHECK(server.stderr_text().find("timeout") != std::string::npos);
}

// A database file cannot be made read-only under a running server (a read-only remount is
// refused while the server holds it open for writing, and a file's mode is checked only when it
// is opened): the next start is where it shows. The server says so and exits; made writable
// again, it starts and every room comes back with every acknowledged move.
TEST_CASE("SQLite on a read-only mount: the start refuses clearly, and once writable all is back",
          "[persist][outage][disk]") {
  if (::geteuid() != 0 && tanbo_server::test::skip_missing("a read-only bind mount needs root"))
    return;
  DataDir dir;
  std::filesystem::create_directories(dir.path);
  std::mt19937 rng(47);
  store_outage::Game g;
  g.kind = "mancala-simple";
  {
    ServerProcess server(dir);
    store_outage::start(g, server.port());
    for (int k = 0; k < 4; ++k) store_outage::play_one(g, rng);
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  const char* path = dir.path.c_str();
  REQUIRE(::mount(path, path, nullptr, MS_BIND, nullptr) == 0);
  const bool read_only =
      ::mount(path, path, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY, nullptr) == 0;
  std::string refusal;
  if (read_only) {
    try {
      ServerProcess refused(dir);
    } catch (const std::exception& e) {
      refusal = e.what();
    }
  }
  ::umount2(path, MNT_DETACH);
  REQUIRE(read_only);
  CHECK_THAT(refusal,
             Catch::Contains("cannot open the store") && Catch::Contains(dir.path.string()));

  ServerProcess server(dir);
  CHECK(store_outage::lines_with(server.log(), "1 rooms restored") == 1);
  const json record = get_json(server.port(), "/api/games/" + g.room + "-1");
  CHECK(record.at("actions").size() == g.acked - 1);
}
