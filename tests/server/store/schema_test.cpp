#include "server/store/schema.hpp"

#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;

TEST_CASE("a new data directory gets a database at the current schema in WAL mode",
          "[store][schema]") {
  TempDir dir;
  REQUIRE_FALSE(std::filesystem::exists(dir.db().parent_path()));
  {
    auto store = open_store(dir.db());
    CHECK(store->healthy());
  }
  REQUIRE(std::filesystem::exists(dir.db()));
  auto db = raw(dir.db());
  SECTION("the schema version is the current one") { CHECK(schema_version(db) == kSchemaVersion); }
  SECTION("the journal is a write-ahead log") {
    CHECK(db.execAndGet("PRAGMA journal_mode").getString() == "wal");
  }
  SECTION("every table and migration 2's additions exist") {
    for (const char* t :
         {"identities", "rooms", "seats", "games", "game_players", "actions", "ratings"}) {
      CAPTURE(t);
      CHECK(db.tableExists(t));
    }
    CHECK(db.execAndGet("SELECT count(*) FROM pragma_table_info('ratings') WHERE name = 'games'")
              .getInt() == 1);
    CHECK(db.execAndGet("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = "
                        "'game_players_identity'")
              .getInt() == 1);
  }
}

TEST_CASE("opening a database twice applies no migration twice", "[store][schema]") {
  TempDir dir;
  { auto s = open_store(dir.db()); }
  { auto s = open_store(dir.db()); }
  auto db = raw(dir.db());
  CHECK(schema_version(db) == kSchemaVersion);
}

TEST_CASE("a version-1 database is upgraded to the current schema and keeps its data",
          "[store][schema]") {
  TempDir dir;
  std::filesystem::create_directories(dir.db().parent_path());
  auto seed = seed_of("old game");
  const std::string seed_hex = tanbo_server::engine::seed_hex(seed);
  const std::string commit = tanbo_server::engine::seed_commitment(seed);
  {
    // What a server of schema version 1 left behind: a finished ranked game with its ratings, and
    // an unfinished room with one action.
    auto db = raw(dir.db());
    std::string error;
    REQUIRE(migrate(db, 1, error));
    REQUIRE(schema_version(db) == 1);
    db.exec("INSERT INTO identities VALUES ('alice', 'Alice', 'h1'), ('bob', 'Bob', 'h2')");
    db.exec(
        R"(INSERT INTO rooms VALUES ('old', 'mancala-simple', '{"first":0}', 'null', 2, 1, '{}', 1000, 1),
                                        ('live', 'mancala-simple', '{"first":"random"}', 'null', 2, 0, '{}', 2000, 1))");
    db.exec(
        "INSERT INTO seats VALUES ('old', 0, 'alice'), ('old', 1, 'bob'), ('live', 0, 'alice'), "
        "('live', 1, NULL)");
    db.exec(
        "INSERT INTO games (seq, room, game_no, seed, commitment, first, first_drawn, started_at, "
        "finished_at, result) VALUES (1, 'old', 1, '" +
        seed_hex + "', '" + commit +
        "', 0, 0, 1000, 1500, "
        "'{\"places\":[1,2],\"reason\":\"empty\"}'), (2, 'live', 1, '" +
        seed_hex + "', '" + commit + "', 1, 1, 2000, NULL, NULL)");
    db.exec(
        "INSERT INTO game_players VALUES (1, 0, 'alice', 1500, 1516), (1, 1, 'bob', 1500, 1484)");
    db.exec(
        "INSERT INTO ratings VALUES ('alice', 'mancala-simple', 1516), ('bob', 'mancala-simple', "
        "1484)");
    db.exec("INSERT INTO actions VALUES ('live', 1, 1, 1, '{\"hole\":2}')");
  }
  auto store = open_store(dir.db());
  SECTION("the schema is current") {
    auto db = raw(dir.db());
    CHECK(schema_version(db) == kSchemaVersion);
  }
  SECTION("ratings keep their values and gain the count of rated games behind them") {
    CHECK(store->rating("alice", "mancala-simple") == 1516.0);
    auto board = store->leaderboard("mancala-simple", 10);
    REQUIRE(board.size() == 2);
    CHECK(board[0]["id"] == "alice");
    CHECK(board[0]["games"] == 1);
    CHECK(board[1]["games"] == 1);
  }
  SECTION("the finished game's record is intact") {
    auto rec = store->game_record("old-1");
    REQUIRE(rec);
    CHECK((*rec)["seed"] == seed_hex);
    CHECK((*rec)["result"]["places"] == Json::array({1, 2}));
    CHECK((*rec)["players_info"][1]["name"] == "Bob");
  }
  SECTION("the unfinished room still loads") {
    std::vector<std::string> log;
    auto rooms = store->load_unfinished([&](std::string l) { log.push_back(std::move(l)); });
    CHECK(log.empty());
    REQUIRE(rooms.size() == 1);
    CHECK(rooms[0].row.id == "live");
    CHECK(rooms[0].row.seats == std::vector<std::string>{"alice", ""});
    REQUIRE(rooms[0].actions.size() == 1);
    CHECK(rooms[0].actions[0].action == Json{{"hole", 2}});
  }
  SECTION("identities are still found by their token hash") {
    auto id = store->identity_by_token_hash("h2");
    REQUIRE(id);
    CHECK(*id == Identity{"bob", "Bob"});
  }
}

TEST_CASE("a database from a newer server is refused, naming both schema versions",
          "[store][schema]") {
  TempDir dir;
  { auto s = open_store(dir.db()); }
  {
    auto db = raw(dir.db());
    db.exec("PRAGMA user_version = " + std::to_string(kSchemaVersion + 1));
  }
  std::string error;
  auto store = Store::open(dir.db(), Durability::normal, error);
  CHECK_FALSE(store);
  CHECK_THAT(error, Catch::Contains("schema version " + std::to_string(kSchemaVersion + 1)) &&
                        Catch::Contains("version " + std::to_string(kSchemaVersion)) &&
                        Catch::Contains("newer"));
  SECTION("and is left untouched") {
    auto db = raw(dir.db());
    CHECK(schema_version(db) == kSchemaVersion + 1);
  }
}

TEST_CASE("a failed migration leaves the database at its old version", "[store][schema]") {
  TempDir dir;
  std::filesystem::create_directories(dir.db().parent_path());
  {
    auto db = raw(dir.db());
    std::string error;
    REQUIRE(migrate(db, 1, error));
    // Migration 2 creates this index; finding it already there makes the migration fail midway.
    db.exec("CREATE INDEX game_players_identity ON game_players(identity)");
  }
  std::string error;
  CHECK_FALSE(Store::open(dir.db(), Durability::normal, error));
  CHECK_THAT(error, Catch::Contains("migration failed"));
  auto db = raw(dir.db());
  CHECK(schema_version(db) == 1);
  CHECK(db.execAndGet("SELECT count(*) FROM pragma_table_info('ratings') WHERE name = 'games'")
            .getInt() == 0);
}

TEST_CASE("both durability settings open the same database", "[store][schema]") {
  TempDir dir;
  {
    auto s = open_store(dir.db(), Durability::full);
    REQUIRE(s->create_room(sample_room("r")).ok());
  }
  auto s = open_store(dir.db(), Durability::normal);
  CHECK(s->load_unfinished({}).size() == 1);
}

TEST_CASE("PostgreSQL: the same migrations bring a new database to the current schema, once",
          "[store][schema][postgres]") {
  if (unavailable(Backend::postgres)) return;
  TestDb db(Backend::postgres);
  { auto s = db.open(); }
  { auto s = db.open(); }
  CHECK(db.count("SELECT version FROM tanbo_schema") == kSchemaVersion);
  CHECK(db.count("SELECT count(*) FROM tanbo_schema") == 1);
  CHECK(db.count("SELECT count(*) FROM identities WHERE id LIKE 'cpu:%'") == 3);
  SECTION("a database from a newer server is refused, naming both schema versions") {
    db.exec("UPDATE tanbo_schema SET version = " + std::to_string(kSchemaVersion + 1));
    std::string error;
    CHECK_FALSE(Store::open_url(db.url(), Durability::normal, error));
    CHECK_THAT(error, Catch::Contains("version " + std::to_string(kSchemaVersion + 1)) &&
                          Catch::Contains("version " + std::to_string(kSchemaVersion)));
  }
}

TEST_CASE("a store URL picks the database, a refused one is named without its password",
          "[store][schema]") {
  SECTION("sqlite:PATH and a bare path open that file") {
    TempDir dir;
    std::string error;
    auto s = Store::open_url("sqlite:" + dir.db().string(), Durability::normal, error);
    REQUIRE(s);
    CHECK(s->describe() == dir.db().string());
    CHECK(std::filesystem::exists(dir.db()));
  }
  SECTION("postgresql:// picks PostgreSQL") {
    std::string error;
    auto s = Store::open_url("postgresql://tanbo:secret@127.0.0.1:1/none?connect_timeout=2",
                             Durability::normal, error);
    CHECK_FALSE(s);
    CHECK_THAT(error, Catch::Contains("postgresql://tanbo:***@127.0.0.1:1/none"));
    CHECK_THAT(error, !Catch::Contains("secret"));
  }
}
