#include "server/store/schema.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Transaction.h>

#include <array>

namespace tanbo::server::store {
namespace {

// Version 1: the initial schema. JSON columns hold compact JSON text; times are milliseconds
// since the Unix epoch; a seat's identity is NULL while the seat is free.
constexpr const char* kMigration1 = R"sql(
CREATE TABLE identities (
  id         TEXT PRIMARY KEY,
  name       TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE
);
CREATE TABLE rooms (
  id         TEXT PRIMARY KEY,
  game       TEXT NOT NULL,
  options    TEXT NOT NULL,
  setup      TEXT NOT NULL,
  players    INTEGER NOT NULL,
  ranked     INTEGER NOT NULL,
  timer      TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  game_no    INTEGER NOT NULL
);
CREATE TABLE seats (
  room     TEXT NOT NULL REFERENCES rooms(id),
  seat     INTEGER NOT NULL,
  identity TEXT,
  PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE games (
  seq         INTEGER PRIMARY KEY,
  room        TEXT NOT NULL REFERENCES rooms(id),
  game_no     INTEGER NOT NULL,
  seed        TEXT NOT NULL,
  commitment  TEXT NOT NULL,
  first       INTEGER NOT NULL,
  first_drawn INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER,
  result      TEXT,
  UNIQUE (room, game_no)
);
CREATE TABLE game_players (
  game_seq      INTEGER NOT NULL REFERENCES games(seq),
  seat          INTEGER NOT NULL,
  identity      TEXT,
  rating_before REAL,
  rating_after  REAL,
  PRIMARY KEY (game_seq, seat)
) WITHOUT ROWID;
CREATE TABLE actions (
  room    TEXT NOT NULL,
  version INTEGER NOT NULL,
  game_no INTEGER NOT NULL,
  seat    INTEGER NOT NULL,
  action  TEXT NOT NULL,
  PRIMARY KEY (room, version),
  FOREIGN KEY (room, game_no) REFERENCES games(room, game_no)
) WITHOUT ROWID;
CREATE TABLE ratings (
  identity TEXT NOT NULL,
  game     TEXT NOT NULL,
  rating   REAL NOT NULL,
  PRIMARY KEY (identity, game)
) WITHOUT ROWID;
)sql";

// Version 2: the player pages and the leaderboard show how many rated games a rating rests on,
// counted from the games already finished; indexes serve the record listings' filters.
constexpr const char* kMigration2 = R"sql(
ALTER TABLE ratings ADD COLUMN games INTEGER NOT NULL DEFAULT 0;
UPDATE ratings SET games = (
  SELECT count(*) FROM game_players gp
  JOIN games g ON g.seq = gp.game_seq
  JOIN rooms r ON r.id = g.room
  WHERE gp.identity = ratings.identity AND r.game = ratings.game
    AND g.finished_at IS NOT NULL AND gp.rating_after IS NOT NULL);
CREATE INDEX games_finished ON games(finished_at, seq) WHERE finished_at IS NOT NULL;
CREATE INDEX game_players_identity ON game_players(identity, game_seq);
CREATE INDEX ratings_game ON ratings(game, rating);
)sql";

// Version 3: recovery and retention. An action keeps the time it was logged (a recovered room's
// clocks restart from its last step); a waiting room everyone left is marked abandoned so that it
// is never recovered again; the computer seats exist as identities (no token can hash to their
// token_hash, which is not 64 hex digits) so their games and ratings read like anyone's.
constexpr const char* kMigration3 = R"sql(
ALTER TABLE actions ADD COLUMN at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rooms ADD COLUMN abandoned_at INTEGER;
INSERT OR IGNORE INTO identities (id, name, token_hash) VALUES
  ('cpu:random', 'CPU (random)', 'cpu:random'),
  ('cpu:greedy', 'CPU (greedy)', 'cpu:greedy'),
  ('cpu:mcts', 'CPU (mcts)', 'cpu:mcts');
)sql";

constexpr std::array kMigrations{kMigration1, kMigration2, kMigration3};
static_assert(kMigrations.size() == std::size_t(kSchemaVersion));

}  // namespace

int schema_version(SQLite::Database& db) { return db.execAndGet("PRAGMA user_version").getInt(); }

bool migrate(SQLite::Database& db, int target, std::string& error) {
  try {
    // IMMEDIATE: a second process opening the same file waits instead of migrating twice.
    SQLite::Transaction tx(db, SQLite::TransactionBehavior::IMMEDIATE);
    const int current = schema_version(db);
    if (current > target) {
      error = "the database has schema version " + std::to_string(current) +
              ", newer than version " + std::to_string(target) +
              " that this server knows: upgrade the server, or restore a backup made for it";
      return false;
    }
    for (int v = current + 1; v <= target; ++v) db.exec(kMigrations[std::size_t(v - 1)]);
    if (target != current) db.exec("PRAGMA user_version = " + std::to_string(target));
    tx.commit();
    return true;
  } catch (const std::exception& e) {
    error = std::string("schema migration failed: ") + e.what();
    return false;
  }
}

}  // namespace tanbo::server::store
