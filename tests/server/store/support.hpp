#pragma once
// Real databases, no mocks: SQLite files in a fresh temporary directory per test, and a throwaway
// PostgreSQL cluster per test process with a fresh database per test.
#include <SQLiteCpp/Database.h>
#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <ostream>
#include <pqxx/pqxx>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "engine/core/rng.hpp"
#include "server/store/pg_store.hpp"
#include "server/store/sqlite_store.hpp"
#include "server/store/store.hpp"
#include "tests/support/missing.hpp"

namespace tanbo_server::server::store::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("tanbo-store-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // data/tanbo.db under the directory: the data directory does not exist yet.
  std::filesystem::path db() const { return path_ / "data" / "tanbo.db"; }

 private:
  std::filesystem::path path_;
};

inline std::unique_ptr<Store> open_store(const std::filesystem::path& path,
                                         Durability d = Durability::normal) {
  std::string error;
  auto store = Store::open(path, d, error);
  INFO(error);
  REQUIRE(store);
  return store;
}

// A second connection on the same file, for what only raw SQL can do or see.
inline SQLite::Database raw(const std::filesystem::path& path) {
  return SQLite::Database(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000);
}

// The test process's PostgreSQL cluster: initdb and pg_ctl of /usr/lib/postgresql/15/bin (or of
// the directory TANBO_TEST_PG_BIN names) in a temporary directory, listening on a Unix socket there
// only. PostgreSQL refuses to run as root, so a root test process runs it as the user `postgres`
// (runuser). Started on first use, stopped at exit; why_not() names the reason when it cannot start
// (unavailable() below).
class PgCluster {
 public:
  static PgCluster& get() {
    static PgCluster cluster;
    return cluster;
  }
  ~PgCluster() {
    if (started_) run(bin_ + "/pg_ctl -D " + dir_.string() + "/data -m immediate stop");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  const std::string& why_not() const { return why_not_; }
  std::string url(const std::string& database) const {
    return "postgresql:///" + database + "?host=" + dir_.string() + "&user=tanbo";
  }
  // A new, empty database: its URL.
  std::string fresh_database() {
    std::string name = std::to_string(next_++);
    name.insert(name.begin(), 't');  // not "t" + ...: GCC 12's -Wrestrict misfires on it
    pqxx::connection c(url("postgres"));
    pqxx::nontransaction tx(c);
    tx.exec0("CREATE DATABASE " + name);
    return url(name);
  }

 private:
  PgCluster() {
    if (!std::filesystem::exists(bin_ + "/initdb")) {
      why_not_ =
          "no " + bin_ +
          "/initdb (PostgreSQL 15: tools/install-deps.sh --test; another: TANBO_TEST_PG_BIN)";
      return;
    }
    dir_ = std::filesystem::temp_directory_path() / ("tanbo-pg-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    if (geteuid() == 0) {
      const passwd* pw = getpwnam("postgres");
      if (!pw || chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0) {
        why_not_ = "running as root, and PostgreSQL refuses root: no user postgres to run it as";
        return;
      }
      as_ = "runuser -u postgres -- ";
    }
    const std::string d = dir_.string();
    if (run(bin_ + "/initdb -D " + d + "/data -A trust -U tanbo --no-sync -E UTF8 --no-locale > " +
            d + "/initdb.log 2>&1") != 0) {
      why_not_ = "initdb failed: see " + d + "/initdb.log";
      return;
    }
    if (!start()) {
      why_not_ = "pg_ctl start failed: see " + d + "/server.log";
      return;
    }
    started_ = true;
  }

 public:
  // An outage: the server stops at once, cutting every connection, then starts again; true
  // when pg_ctl did it.
  bool stop() const {
    return run(bin_ + "/pg_ctl -D " + dir_.string() + "/data -m immediate -w stop > /dev/null") ==
           0;
  }
  bool start() const {
    const std::string d = dir_.string();
    return run(bin_ + "/pg_ctl -D " + d + "/data -l " + d + "/server.log -w -o \"-k " + d +
               " -c listen_addresses='' -c fsync=off -c max_connections=40 -c "
               "track_commit_timestamp=on\" start > /dev/null") == 0;
  }

 private:
  int run(const std::string& command) const { return std::system((as_ + command).c_str()); }

  std::string bin_ = std::getenv("TANBO_TEST_PG_BIN") ? std::getenv("TANBO_TEST_PG_BIN")
                                                      : "/usr/lib/postgresql/15/bin";
  std::filesystem::path dir_;
  std::string as_;
  std::string why_not_;
  bool started_ = false;
  int next_ = 0;
};

enum class Backend { sqlite, postgres };

inline std::ostream& operator<<(std::ostream& os, Backend b) {
  return os << (b == Backend::sqlite ? "sqlite" : "postgres");
}

// False when `b` runs here. Otherwise the test fails, naming the reason, or under
// TANBO_TEST_ALLOW_MISSING=1 this is true and the test returns, reported as skipped
// (tests/support/missing.hpp).
inline bool unavailable(Backend b) {
  if (b != Backend::postgres || PgCluster::get().why_not().empty()) return false;
  return tanbo_server::test::skip_missing("PostgreSQL cannot run here: " +
                                          PgCluster::get().why_not());
}

// One test's database on a backend: a file in a fresh TempDir, or a fresh database in the
// cluster. open() opens a Store on it, again after a close to reopen it.
class TestDb {
 public:
  explicit TestDb(Backend b) : backend_(b) {
    if (b == Backend::postgres) url_ = PgCluster::get().fresh_database();
  }
  Backend backend() const { return backend_; }
  const TempDir& dir() const { return dir_; }
  std::string url() const { return backend_ == Backend::sqlite ? dir_.db().string() : url_; }

  std::unique_ptr<Store> open(Durability d = Durability::normal) const {
    std::string error;
    auto store = Store::open_url(url(), d, error);
    INFO(error);
    REQUIRE(store);
    return store;
  }
  // Raw SQL on a connection of its own, for what only raw SQL can do or see.
  void exec(const std::string& sql) const {
    if (backend_ == Backend::sqlite) {
      SQLite::Database(dir_.db(), SQLite::OPEN_READWRITE, 5000).exec(sql);
    } else {
      pqxx::connection c(url_);
      pqxx::nontransaction tx(c);
      tx.exec(sql);
    }
  }
  std::int64_t count(const std::string& sql) const {
    if (backend_ == Backend::sqlite)
      return SQLite::Database(dir_.db(), SQLite::OPEN_READONLY, 5000).execAndGet(sql).getInt64();
    pqxx::connection c(url_);
    pqxx::nontransaction tx(c);
    return tx.exec1(sql)[0].as<std::int64_t>();
  }

 private:
  Backend backend_;
  TempDir dir_;
  std::string url_;
};

inline engine::Seed seed_of(const std::string& text) { return engine::seed_from_text(text); }

// A 2-player mancala-simple room; its seed is derived from the room id.
inline RoomRow sample_room(const std::string& id, std::int64_t created_at = 1'700'000'000'000) {
  RoomRow r;
  r.id = id;
  r.game = "mancala-simple";
  r.options = {{"holes", 6}, {"stones", 4}, {"full_ranking", true}, {"first", "random"}};
  r.setup = nullptr;
  r.players = 2;
  auto seed = seed_of("seed of " + id);
  r.seed = engine::seed_hex(seed);
  r.commit = engine::seed_commitment(seed);
  r.ranked = false;
  r.timer = {{"turn_ms", 30000}};
  r.created_at = created_at;
  r.first = 1;
  r.first_drawn = true;
  r.seats = {"alice", "bob"};
  r.game_no = 1;
  return r;
}

}  // namespace tanbo_server::server::store::testing
