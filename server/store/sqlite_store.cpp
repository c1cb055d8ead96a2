#include "server/store/sqlite_store.hpp"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <SQLiteCpp/Transaction.h>
#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <set>
#include <system_error>
#include <utility>

#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "server/store/detail.hpp"
#include "server/store/schema.hpp"

namespace tanbo::server::store {
namespace {

using namespace detail;

// Binds text, or NULL for an empty string (a free seat).
void bind_or_null(SQLite::Statement& q, int index, std::string_view s) {
  if (s.empty())
    q.bind(index);
  else
    q.bind(index, str(s));
}

std::string column_text(const SQLite::Statement& q, int index) {
  auto c = q.getColumn(index);
  return c.isNull() ? std::string() : c.getString();
}

Json text_or_null(const SQLite::Statement& q, int index) {
  auto c = q.getColumn(index);
  return c.isNull() ? Json() : Json(c.getString());
}

// A stored JSON column; a row that does not parse is corrupt, never the caller's fault.
Json stored_json(const SQLite::Statement& q, int index, std::string_view where) {
  auto c = q.getColumn(index);
  Json j = c.isText() ? Json::parse(c.getString(), nullptr, false) : Json(Json::value_t::discarded);
  if (j.is_discarded())
    throw StoreError(str(where) + ": " + q.getColumnName(index) + " is not JSON");
  return j;
}

std::int64_t stored_int(const SQLite::Statement& q, int index, std::string_view where) {
  auto c = q.getColumn(index);
  if (!c.isInteger())
    throw StoreError(str(where) + ": " + q.getColumnName(index) + " is not an integer");
  return c.getInt64();
}

constexpr const char* kCurrentGame =
    "SELECT g.seq, g.game_no, r.players, g.finished_at IS NOT NULL, r.ranked, r.game "
    "FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
    "WHERE r.id = ?";
constexpr const char* kAppendAction =
    "INSERT INTO actions (room, version, game_no, seat, action, at, clocks) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)";

// q: kCurrentGame, prepared. Reset before returning, so that no read stays open on the file.
std::optional<Current> current_game(SQLite::Statement& q, std::string_view room) {
  q.bind(1, str(room));
  std::optional<Current> current;
  if (q.executeStep())
    current = Current{q.getColumn(0).getInt64(),    q.getColumn(1).getInt(),
                      q.getColumn(2).getInt(),      q.getColumn(3).getInt() != 0,
                      q.getColumn(4).getInt() != 0, q.getColumn(5).getString()};
  q.reset();
  return current;
}

}  // namespace

SqliteStore::SqliteStore(std::unique_ptr<SQLite::Database> db, std::filesystem::path path)
    : db_(std::move(db)), path_(std::move(path)) {}

SqliteStore::~SqliteStore() = default;

std::unique_ptr<SqliteStore> SqliteStore::open(const std::filesystem::path& path,
                                               Durability durability, std::string& error) {
  const std::string where = "database " + path.string() + ": ";
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) return error = where + "cannot create its directory: " + ec.message(), nullptr;
  try {
    auto db = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                                 5000);
    std::string mode = db->execAndGet("PRAGMA journal_mode = WAL").getString();
    if (mode != "wal")
      return error = where + "cannot use WAL mode (journal_mode " + mode + ")", nullptr;
    // NORMAL in WAL mode: a commit survives a process crash; FULL also fsyncs it for power loss.
    db->exec(durability == Durability::full ? "PRAGMA synchronous = FULL"
                                            : "PRAGMA synchronous = NORMAL");
    db->exec("PRAGMA foreign_keys = ON");
    if (!migrate(*db, kSchemaVersion, error)) return error = where + error, nullptr;
    return std::unique_ptr<SqliteStore>(new SqliteStore(std::move(db), path));
  } catch (const std::exception& e) {
    error = where + e.what();
    return nullptr;
  }
}

// --- Group commit ---

namespace {

// A write inside a group: released when it succeeded, otherwise rolled back alone. SQLite may
// already have rolled the whole transaction back (an I/O error, a full disk); end_group sees that.
// `run` executes a prepared statement by its SQL.
template <class Run>
class Savepoint {
 public:
  explicit Savepoint(Run run) : run_(run) { run_("SAVEPOINT w"); }
  ~Savepoint() {
    if (released_) return;
    try {
      run_("ROLLBACK TO w");
      run_("RELEASE w");
    } catch (...) {  // the transaction is gone already: nothing left to undo
    }
  }
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  void release() {
    run_("RELEASE w");
    released_ = true;
  }

 private:
  Run run_;
  bool released_ = false;
};

}  // namespace

sqlite3* SqliteStore::handle() const { return db_->getHandle(); }

SQLite::Statement& SqliteStore::prepared(const char* sql) {
  auto& q = prepared_[sql];
  if (!q) {
    q = std::make_unique<SQLite::Statement>(*db_, sql);
  } else {
    // A failed step leaves its error in the statement; tryReset clears it without rethrowing.
    q->tryReset();
    q->clearBindings();
  }
  return *q;
}

bool SqliteStore::begin_group() {
  if (grouped_) return true;
  try {
    prepared("BEGIN IMMEDIATE").exec();
    grouped_ = true;
  } catch (const std::exception&) {
    grouped_ = false;
  }
  return grouped_;
}

bool SqliteStore::end_group(std::string& error) {
  if (!grouped_) return true;
  grouped_ = false;
  try {
    if (sqlite3_get_autocommit(db_->getHandle()))
      throw StoreError("the transaction was rolled back by a failure inside it");
    prepared("COMMIT").exec();
    return true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  // A refused COMMIT (a commit hook, SQLITE_BUSY) may leave the transaction open.
  if (!sqlite3_get_autocommit(db_->getHandle())) {
    try {
      db_->exec("ROLLBACK");
    } catch (...) {  // rolled back already
    }
  }
  healthy_.store(false, std::memory_order_relaxed);
  return false;
}

// One transaction around body(), or one savepoint inside the group's; a refusal from body rolls
// it back like a failure does.
template <class F>
WriteResult SqliteStore::write(std::string_view what, F&& body) {
  try {
    if (grouped_) {
      if (sqlite3_get_autocommit(db_->getHandle())) {
        healthy_.store(false, std::memory_order_relaxed);
        return refuse(Code::failed, str(what) + ": the group's transaction was lost");
      }
      Savepoint sp([this](const char* sql) { prepared(sql).exec(); });
      WriteResult r = body();
      if (r.ok()) sp.release();
      return r;
    }
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    WriteResult r = body();
    if (r.ok()) tx.commit();
    return r;
  } catch (const SQLite::Exception& e) {
    const std::string message = str(what) + ": " + e.what();
    switch (e.getExtendedErrorCode()) {
      case SQLITE_CONSTRAINT_PRIMARYKEY:
      case SQLITE_CONSTRAINT_UNIQUE:
        return refuse(Code::duplicate, message);
      case SQLITE_CONSTRAINT_FOREIGNKEY:
        return refuse(Code::not_found, message);
      default:
        break;
    }
    if (e.getErrorCode() == SQLITE_CONSTRAINT) return refuse(Code::invalid, message);
    healthy_.store(false, std::memory_order_relaxed);
    return refuse(Code::failed, message);
  } catch (const Json::exception& e) {  // a JSON value that cannot be written (bad UTF-8)
    return refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const std::exception& e) {
    healthy_.store(false, std::memory_order_relaxed);
    return refuse(Code::failed, str(what) + ": " + e.what());
  }
}

// --- Rooms and games ---

WriteResult SqliteStore::create_room(const RoomRow& row) {
  return write("create_room " + row.id, [&]() -> WriteResult {
    if (row.id.empty() || row.game.empty())
      return refuse(Code::invalid, "a room needs an id and a game");
    if (row.players < 1 || row.seats.size() != std::size_t(row.players))
      return refuse(Code::invalid, "a room needs one seat entry per player");
    if (row.first < 0 || row.first >= row.players)
      return refuse(Code::invalid, "first: no such seat");
    if (!row.options.is_object()) return refuse(Code::invalid, "options: expected an object");
    if (auto p = seed_problem(row.seed, row.commit)) return refuse(Code::invalid, *p);
    SQLite::Statement room(*db_,
                           "INSERT INTO rooms (id, game, options, setup, players, ranked, timer, "
                           "created_at, game_no) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)");
    room.bind(1, row.id);
    room.bind(2, row.game);
    room.bind(3, row.options.dump());
    room.bind(4, row.setup.dump());
    room.bind(5, row.players);
    room.bind(6, int(row.ranked));
    room.bind(7, row.timer.dump());
    room.bind(8, std::int64_t(row.created_at));
    room.exec();
    SQLite::Statement seat(*db_, "INSERT INTO seats (room, seat, identity) VALUES (?, ?, ?)");
    for (int s = 0; s < row.players; ++s) {
      seat.reset();
      seat.bind(1, row.id);
      seat.bind(2, s);
      bind_or_null(seat, 3, row.seats[std::size_t(s)]);
      seat.exec();
    }
    // R5: game 1 follows the room's options, so its first seat was drawn exactly when they
    // leave it to chance (the registry draws for any string value).
    const bool drawn = row.options.contains("first") && row.options["first"].is_string();
    SQLite::Statement game(
        *db_,
        "INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, "
        "started_at) VALUES (?, 1, ?, ?, ?, ?, ?)");
    game.bind(1, row.id);
    game.bind(2, row.seed);
    game.bind(3, row.commit);
    game.bind(4, row.first);
    game.bind(5, int(drawn));
    game.bind(6, std::int64_t(row.created_at));
    game.exec();
    return {};
  });
}

WriteResult SqliteStore::set_seat(std::string_view room, Seat seat, std::string_view player) {
  return write("set_seat " + str(room), [&]() -> WriteResult {
    SQLite::Statement q(*db_, "UPDATE seats SET identity = ? WHERE room = ? AND seat = ?");
    bind_or_null(q, 1, player);
    q.bind(2, str(room));
    q.bind(3, seat);
    if (q.exec() == 0)
      return refuse(Code::not_found, "no seat " + std::to_string(seat) + " in room " + str(room));
    return {};
  });
}

WriteResult SqliteStore::append_action(std::string_view room, int game_no, std::int64_t version,
                                       Seat seat, const Json& action, const Json& clocks,
                                       std::int64_t at) {
  return write("append_action " + str(room), [&]() -> WriteResult {
    auto current = current_game(prepared(kCurrentGame), room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (current->game_no != game_no) return not_current(room, game_no, *current);
    if (current->finished)
      return refuse(Code::invalid, "game " + game_id(room, game_no) + " is over");
    if (seat < 0 || seat >= current->players)
      return refuse(Code::invalid, "no seat " + std::to_string(seat));
    auto& append = prepared(kAppendAction);
    append.bind(1, str(room));
    append.bind(2, std::int64_t(version));
    append.bind(3, game_no);
    append.bind(4, seat);
    append.bind(5, action.dump());
    append.bind(6, at != 0 ? at : std::int64_t(now_ms()));
    append.bind(7, clocks.dump());
    append.exec();
    return {};
  });
}

WriteResult SqliteStore::start_rematch(std::string_view room, int game_no,
                                       std::string_view seed_hex, std::string_view commit,
                                       Seat first, bool first_drawn, std::int64_t started_at) {
  return write("start_rematch " + str(room), [&]() -> WriteResult {
    auto current = current_game(prepared(kCurrentGame), room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (!current->finished)
      return refuse(Code::invalid, "game " + game_id(room, current->game_no) + " is not over");
    if (game_no != current->game_no + 1)
      return refuse(Code::invalid, "the next game of room " + str(room) + " is " +
                                       std::to_string(current->game_no + 1));
    if (first < 0 || first >= current->players) return refuse(Code::invalid, "first: no such seat");
    if (auto p = seed_problem(seed_hex, commit)) return refuse(Code::invalid, *p);
    SQLite::Statement game(
        *db_,
        "INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, "
        "started_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
    game.bind(1, str(room));
    game.bind(2, game_no);
    game.bind(3, str(seed_hex));
    game.bind(4, str(commit));
    game.bind(5, first);
    game.bind(6, int(first_drawn));
    game.bind(7, std::int64_t(started_at ? started_at : now_ms()));
    game.exec();
    SQLite::Statement up(*db_, "UPDATE rooms SET game_no = ? WHERE id = ?");
    up.bind(1, game_no);
    up.bind(2, str(room));
    up.exec();
    return {};
  });
}

WriteResult SqliteStore::finish_game(std::string_view room, int game_no, const Json& result,
                                     std::int64_t finished_at) {
  return write("finish_game " + str(room), [&]() -> WriteResult {
    auto current = current_game(prepared(kCurrentGame), room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (current->game_no != game_no) return not_current(room, game_no, *current);
    if (current->finished)
      return refuse(Code::duplicate, "game " + game_id(room, game_no) + " is over already");
    auto checked = checked_result(result, current->players);
    if (!checked)
      return refuse(Code::invalid, "result: expected {places: [" +
                                       std::to_string(current->players) +
                                       " places], reason: string}");

    std::vector<std::string> seats(std::size_t(current->players));
    SQLite::Statement sq(*db_, "SELECT seat, identity FROM seats WHERE room = ?");
    sq.bind(1, str(room));
    while (sq.executeStep()) {
      int s = sq.getColumn(0).getInt();
      if (s >= 0 && s < current->players) seats[std::size_t(s)] = column_text(sq, 1);
    }

    // M7: ratings change only between distinct identities holding every seat of a ranked room.
    std::vector<std::optional<double>> before(seats.size()), after(seats.size());
    std::set<std::string> distinct(seats.begin(), seats.end());
    if (current->ranked && seats.size() >= 2 && distinct.size() == seats.size() &&
        !distinct.contains("")) {
      std::vector<int> places;
      std::vector<double> ratings;
      for (std::size_t s = 0; s < seats.size(); ++s) {
        places.push_back((*checked)["places"][s].get<int>());
        ratings.push_back(rating(seats[s], current->game));
      }
      auto updated = elo_updates(places, ratings);
      SQLite::Statement up(
          *db_,
          "INSERT INTO ratings (identity, game, rating, games) VALUES (?, ?, ?, 1) "
          "ON CONFLICT (identity, game) DO UPDATE SET rating = excluded.rating, "
          "games = games + 1");
      for (std::size_t s = 0; s < seats.size(); ++s) {
        before[s] = ratings[s];
        after[s] = updated[s];
        up.reset();
        up.bind(1, seats[s]);
        up.bind(2, current->game);
        up.bind(3, updated[s]);
        up.exec();
      }
    }

    SQLite::Statement gp(
        *db_,
        "INSERT INTO game_players (game_seq, seat, identity, rating_before, rating_after) "
        "VALUES (?, ?, ?, ?, ?)");
    for (std::size_t s = 0; s < seats.size(); ++s) {
      gp.reset();
      gp.bind(1, std::int64_t(current->seq));
      gp.bind(2, int(s));
      bind_or_null(gp, 3, seats[s]);
      if (before[s])
        gp.bind(4, *before[s]);
      else
        gp.bind(4);
      if (after[s])
        gp.bind(5, *after[s]);
      else
        gp.bind(5);
      gp.exec();
    }
    SQLite::Statement fin(*db_, "UPDATE games SET finished_at = ?, result = ? WHERE seq = ?");
    fin.bind(1, std::int64_t(finished_at));
    fin.bind(2, checked->dump());
    fin.bind(3, std::int64_t(current->seq));
    fin.exec();
    return {};
  });
}

WriteResult SqliteStore::set_timer(std::string_view room, const Json& timer) {
  return write("set_timer " + str(room), [&]() -> WriteResult {
    SQLite::Statement q(*db_, "UPDATE rooms SET timer = ? WHERE id = ?");
    q.bind(1, timer.dump());
    q.bind(2, str(room));
    if (q.exec() == 0) return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

WriteResult SqliteStore::abandon_room(std::string_view room, std::int64_t at) {
  return write("abandon_room " + str(room), [&]() -> WriteResult {
    SQLite::Statement q(*db_, "UPDATE rooms SET abandoned_at = ? WHERE id = ?");
    q.bind(1, std::int64_t(at));
    q.bind(2, str(room));
    if (q.exec() == 0) return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

std::vector<LoadedRoom> SqliteStore::load_unfinished(const Log& log,
                                                     std::optional<std::int64_t> finished_since) {
  return load_rooms(log, std::nullopt, finished_since);
}

std::optional<LoadedRoom> SqliteStore::load_room(std::string_view id, const Log& log,
                                                 std::optional<std::int64_t> finished_since) {
  auto rooms = load_rooms(log, id, finished_since);
  if (rooms.empty()) return std::nullopt;
  return std::move(rooms.front());
}

std::vector<LoadedRoom> SqliteStore::load_rooms(const Log& log,
                                                std::optional<std::string_view> only,
                                                std::optional<std::int64_t> finished_since) {
  const std::string what = only ? "load_room " + str(*only) : std::string("load_unfinished");
  std::vector<LoadedRoom> rooms;
  try {
    // A statement of its own, not prepared(): that cache keys by a literal's address, and this
    // SQL is built here.
    SQLite::Statement q(*db_, std::string("SELECT r.id, r.game, r.options, r.setup, r.players, "
                                          "r.ranked, r.timer, r.created_at, r.game_no, g.seed, "
                                          "g.commitment, g.first, g.first_drawn, g.started_at, "
                                          "g.finished_at FROM rooms r "
                                          "JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
                                          "WHERE r.abandoned_at IS NULL AND ") +
                                  live_game_sql(finished_since) + (only ? " AND r.id = ?" : "") +
                                  " ORDER BY r.created_at, r.id");
    if (only) q.bind(1, str(*only));
    while (q.executeStep()) {
      const std::string id = column_text(q, 0);
      try {
        const std::string where = "room " + id;
        LoadedRoom loaded;
        RoomRow& row = loaded.row;
        row.id = id;
        row.game = column_text(q, 1);
        const engine::GameInfo* info = engine::find_game(row.game);
        if (!info) throw StoreError(where + ": unknown game '" + row.game + "'");
        row.options = stored_json(q, 2, where);
        if (!row.options.is_object()) throw StoreError(where + ": options is not an object");
        row.setup = stored_json(q, 3, where);
        row.players = int(stored_int(q, 4, where));
        if (row.players < info->min_players || row.players > info->max_players)
          throw StoreError(where + ": " + std::to_string(row.players) + " players in " + row.game);
        auto ranked = stored_int(q, 5, where);
        if (ranked != 0 && ranked != 1) throw StoreError(where + ": ranked is not 0 or 1");
        row.ranked = ranked == 1;
        row.timer = stored_json(q, 6, where);
        row.created_at = stored_int(q, 7, where);
        row.game_no = int(stored_int(q, 8, where));
        row.seed = column_text(q, 9);
        row.commit = column_text(q, 10);
        if (auto p = seed_problem(row.seed, row.commit)) throw StoreError(where + ": " + *p);
        row.first = Seat(stored_int(q, 11, where));
        if (row.first < 0 || row.first >= row.players)
          throw StoreError(where + ": first is no seat");
        auto drawn = stored_int(q, 12, where);
        if (drawn != 0 && drawn != 1) throw StoreError(where + ": first_drawn is not 0 or 1");
        row.first_drawn = drawn == 1;
        loaded.started_at = stored_int(q, 13, where);
        loaded.finished_at = q.getColumn(14).isNull() ? 0 : stored_int(q, 14, where);

        row.seats.assign(std::size_t(row.players), std::string());
        std::vector<bool> seen(std::size_t(row.players));
        SQLite::Statement sq(*db_, "SELECT seat, identity FROM seats WHERE room = ?");
        sq.bind(1, id);
        while (sq.executeStep()) {
          auto s = stored_int(sq, 0, where);
          if (s < 0 || s >= row.players || seen[std::size_t(s)])
            throw StoreError(where + ": bad seat row");
          seen[std::size_t(s)] = true;
          row.seats[std::size_t(s)] = column_text(sq, 1);
        }
        for (bool b : seen)
          if (!b) throw StoreError(where + ": a seat row is missing");

        SQLite::Statement aq(
            *db_,
            "SELECT version, seat, action, at, clocks FROM actions WHERE room = ? AND game_no = ? "
            "ORDER BY version");
        aq.bind(1, id);
        aq.bind(2, row.game_no);
        while (aq.executeStep()) {
          LoggedAction a{stored_int(aq, 0, where), Seat(stored_int(aq, 1, where)),
                         stored_json(aq, 2, where + " action"), stored_int(aq, 3, where),
                         stored_json(aq, 4, where + " clocks")};
          if (a.seat < 0 || a.seat >= row.players)
            throw StoreError(where + ": an action's seat is no seat");
          loaded.actions.push_back(std::move(a));
        }
        SQLite::Statement vq(*db_, "SELECT coalesce(max(version), 0) FROM actions WHERE room = ?");
        vq.bind(1, id);
        vq.executeStep();
        loaded.version = vq.getColumn(0).getInt64();
        rooms.push_back(std::move(loaded));
      } catch (const std::exception& e) {
        if (log) log("store: room " + id + " set aside, it cannot be loaded: " + e.what());
      }
    }
  } catch (const SQLite::Exception& e) {
    throw StoreError(what + ": " + e.what());
  }
  return rooms;
}

// --- The statement runner of the store logic written once ---

std::vector<Store::SqlRow> SqliteStore::query(const std::string& sql,
                                              const std::vector<SqlValue>& params) {
  SQLite::Statement q(*db_, sql);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int at = int(i) + 1;
    std::visit(
        [&](const auto& v) {
          using T = std::decay_t<decltype(v)>;
          if constexpr (std::is_same_v<T, std::nullptr_t>)
            q.bind(at);
          else
            q.bind(at, v);
        },
        params[i]);
  }
  std::vector<SqlRow> rows;
  while (q.executeStep()) {
    SqlRow row;
    for (int c = 0; c < q.getColumnCount(); ++c) {
      auto col = q.getColumn(c);
      if (col.isNull())
        row.emplace_back(nullptr);
      else if (col.isInteger())
        row.emplace_back(col.getInt64());
      else if (col.isFloat())
        row.emplace_back(col.getDouble());
      else
        row.emplace_back(col.getString());
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

WriteResult SqliteStore::transact(std::string_view what, const std::function<WriteResult()>& body) {
  return write(what, body);
}

void SqliteStore::reading(std::string_view what, const std::function<void()>& body) {
  try {
    body();
  } catch (const SQLite::Exception& e) {
    throw StoreError(str(what) + ": " + e.what());
  }
}

// --- Records ---

Json SqliteStore::players_info(std::int64_t game_seq, bool finished, std::string_view room) {
  Json out = Json::array();
  if (finished) {
    SQLite::Statement q(*db_,
                        "SELECT gp.seat, gp.identity, i.name, gp.rating_before, gp.rating_after "
                        "FROM game_players gp LEFT JOIN identities i ON i.id = gp.identity "
                        "WHERE gp.game_seq = ? ORDER BY gp.seat");
    q.bind(1, std::int64_t(game_seq));
    while (q.executeStep()) {
      Json p{{"seat", q.getColumn(0).getInt()},
             {"id", text_or_null(q, 1)},
             {"name", text_or_null(q, 2)}};
      if (!q.getColumn(3).isNull()) p["rating_before"] = rounded(q.getColumn(3).getDouble());
      if (!q.getColumn(4).isNull()) p["rating_after"] = rounded(q.getColumn(4).getDouble());
      out.push_back(std::move(p));
    }
  } else {
    SQLite::Statement q(
        *db_,
        "SELECT s.seat, s.identity, i.name FROM seats s "
        "LEFT JOIN identities i ON i.id = s.identity WHERE s.room = ? ORDER BY s.seat");
    q.bind(1, str(room));
    while (q.executeStep())
      out.push_back({{"seat", q.getColumn(0).getInt()},
                     {"id", text_or_null(q, 1)},
                     {"name", text_or_null(q, 2)}});
  }
  return out;
}

std::optional<Json> SqliteStore::game_record(std::string_view id) {
  auto dash = id.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  std::int64_t game_no = 0;
  if (!parse_int(id.substr(dash + 1), game_no) || game_no < 1 || game_no > 1'000'000'000)
    return std::nullopt;
  const std::string room = str(id.substr(0, dash));
  try {
    SQLite::Statement q(
        *db_,
        "SELECT g.seq, r.game, r.options, r.setup, r.players, r.ranked, g.seed, "
        "g.commitment, g.first, g.first_drawn, g.started_at, g.finished_at, g.result "
        "FROM games g JOIN rooms r ON r.id = g.room WHERE g.room = ? AND g.game_no = ?");
    q.bind(1, room);
    q.bind(2, std::int64_t(game_no));
    if (!q.executeStep()) return std::nullopt;
    const std::string where = "game " + str(id);
    const bool finished = !q.getColumn(11).isNull();
    Json actions = Json::array();
    SQLite::Statement aq(
        *db_, "SELECT seat, action FROM actions WHERE room = ? AND game_no = ? ORDER BY version");
    aq.bind(1, room);
    aq.bind(2, std::int64_t(game_no));
    while (aq.executeStep())
      actions.push_back(
          {{"seat", aq.getColumn(0).getInt()}, {"action", stored_json(aq, 1, where)}});
    Json record{
        {"id", str(id)},
        {"room", room},
        {"game_no", game_no},
        {"game", column_text(q, 1)},
        {"options", game_options(stored_json(q, 2, where), q.getColumn(8).getInt(),
                                 q.getColumn(9).getInt() != 0)},
        {"setup", stored_json(q, 3, where)},
        {"players", q.getColumn(4).getInt()},
        {"ranked", q.getColumn(5).getInt() != 0},
        {"commit", column_text(q, 7)},
        {"first", q.getColumn(8).getInt()},
        {"status", finished ? "finished" : "playing"},
        {"actions", std::move(actions)},
        {"players_info", players_info(q.getColumn(0).getInt64(), finished, room)},
        {"started_at", q.getColumn(10).getInt64()},
        {"finished_at", finished ? Json(q.getColumn(11).getInt64()) : Json()},
        {"result", finished ? stored_json(q, 12, where) : Json()},
    };
    // R1: the seed is revealed only once the game is over.
    if (finished) record["seed"] = column_text(q, 6);
    return record;
  } catch (const SQLite::Exception& e) {
    throw StoreError("game_record " + str(id) + ": " + e.what());
  }
}

// Rows of (seq, room, game_no, game, players, ranked, started_at, finished_at, result).
Json SqliteStore::summaries(SQLite::Statement& q) {
  Json out = Json::array();
  while (q.executeStep()) {
    const std::string room = column_text(q, 1);
    const int game_no = q.getColumn(2).getInt();
    const std::string where = "game " + game_id(room, game_no);
    out.push_back({{"id", game_id(room, game_no)},
                   {"room", room},
                   {"game_no", game_no},
                   {"game", column_text(q, 3)},
                   {"players", q.getColumn(4).getInt()},
                   {"ranked", q.getColumn(5).getInt() != 0},
                   {"players_info", players_info(q.getColumn(0).getInt64(), true, room)},
                   {"started_at", q.getColumn(6).getInt64()},
                   {"finished_at", q.getColumn(7).getInt64()},
                   {"result", stored_json(q, 8, where)},
                   {"cursor", std::to_string(q.getColumn(7).getInt64()) + "." +
                                  std::to_string(q.getColumn(0).getInt64())}});
  }
  return out;
}

Json SqliteStore::list_games(const std::optional<std::string>& player,
                             const std::optional<std::string>& game, int limit,
                             const std::optional<std::string>& before) {
  std::optional<Cursor> cursor;
  if (before) {
    cursor = parse_cursor(*before);
    if (!cursor)
      return {{"games", Json::array()},
              {"next", nullptr},
              {"error", "before: expected a cursor or a time in ms"}};
  }
  limit = std::clamp(limit, 1, 100);
  try {
    SQLite::Statement q(
        *db_,
        "SELECT g.seq, g.room, g.game_no, r.game, r.players, r.ranked, g.started_at, "
        "g.finished_at, g.result FROM games g JOIN rooms r ON r.id = g.room "
        "WHERE g.finished_at IS NOT NULL AND (?1 IS NULL OR r.game = ?1) "
        "AND (?2 IS NULL OR EXISTS (SELECT 1 FROM game_players gp "
        "     WHERE gp.game_seq = g.seq AND gp.identity = ?2)) "
        "AND (?3 IS NULL OR g.finished_at < ?3 OR (g.finished_at = ?3 AND g.seq < ?4)) "
        "ORDER BY g.finished_at DESC, g.seq DESC LIMIT ?5");
    if (game) q.bind(1, *game);
    if (player) q.bind(2, *player);
    if (cursor) {
      q.bind(3, std::int64_t(cursor->finished_at));
      if (cursor->seq) q.bind(4, std::int64_t(*cursor->seq));
    }
    q.bind(5, limit + 1);  // one more tells whether a next page exists
    Json games = summaries(q);
    Json next;
    if (games.size() > std::size_t(limit)) {
      games.erase(games.end() - 1);
      next = games.back()["cursor"];
    }
    for (auto& g : games) g.erase("cursor");
    return {{"games", std::move(games)}, {"next", std::move(next)}};
  } catch (const SQLite::Exception& e) {
    throw StoreError(std::string("list_games: ") + e.what());
  }
}

// --- Identities ---

WriteResult SqliteStore::set_name(std::string_view id, std::string_view name) {
  if (auto bad = validate_name(name)) return refuse(Code::invalid, *bad);
  return write("set_name " + str(id), [&]() -> WriteResult {
    SQLite::Statement q(*db_, "UPDATE identities SET name = ? WHERE id = ?");
    q.bind(1, str(name));
    q.bind(2, str(id));
    if (q.exec() == 0) return refuse(Code::not_found, "no identity " + str(id));
    return {};
  });
}

// --- Ratings ---

double SqliteStore::rating(std::string_view identity, std::string_view game) {
  try {
    SQLite::Statement q(*db_, "SELECT rating FROM ratings WHERE identity = ? AND game = ?");
    q.bind(1, str(identity));
    q.bind(2, str(game));
    return q.executeStep() ? q.getColumn(0).getDouble() : kInitialRating;
  } catch (const SQLite::Exception& e) {
    throw StoreError(std::string("rating: ") + e.what());
  }
}

std::optional<Json> SqliteStore::player(std::string_view id, int recent) {
  try {
    SQLite::Statement q(*db_, "SELECT name FROM identities WHERE id = ?");
    q.bind(1, str(id));
    if (!q.executeStep()) return std::nullopt;
    Json out{{"id", str(id)}, {"name", column_text(q, 0)}, {"ratings", Json::object()}};
    SQLite::Statement rq(
        *db_, "SELECT game, rating, games FROM ratings WHERE identity = ? ORDER BY game");
    rq.bind(1, str(id));
    while (rq.executeStep())
      out["ratings"][column_text(rq, 0)] = {{"rating", rounded(rq.getColumn(1).getDouble())},
                                            {"games", rq.getColumn(2).getInt64()}};
    out["recent"] = list_games(str(id), std::nullopt, recent, std::nullopt)["games"];
    return out;
  } catch (const SQLite::Exception& e) {
    throw StoreError("player " + str(id) + ": " + e.what());
  }
}

Json SqliteStore::leaderboard(std::string_view game, int limit) {
  try {
    SQLite::Statement q(*db_,
                        "SELECT r.identity, i.name, r.rating, r.games FROM ratings r "
                        "LEFT JOIN identities i ON i.id = r.identity WHERE r.game = ? "
                        "ORDER BY r.rating DESC, r.identity LIMIT ?");
    q.bind(1, str(game));
    q.bind(2, std::clamp(limit, 1, 1000));
    Json out = Json::array();
    while (q.executeStep())
      out.push_back({{"rank", out.size() + 1},
                     {"id", column_text(q, 0)},
                     {"name", text_or_null(q, 1)},
                     {"rating", rounded(q.getColumn(2).getDouble())},
                     {"games", q.getColumn(3).getInt64()}});
    return out;
  } catch (const SQLite::Exception& e) {
    throw StoreError(std::string("leaderboard: ") + e.what());
  }
}

}  // namespace tanbo::server::store
