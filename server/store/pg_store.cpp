#include "server/store/pg_store.hpp"

#include <charconv>
#include <pqxx/pqxx>
#include <set>

#include "engine/core/registry.hpp"
#include "server/store/detail.hpp"
#include "server/store/schema.hpp"

namespace tanbo::server::store {
namespace {

using namespace detail;

// Text ordering as SQLite's (bytes), whatever the database's locale.
#define C_ORDER " COLLATE \"C\""

std::string text(const pqxx::field& f) { return f.is_null() ? std::string() : f.c_str(); }

Json text_or_null(const pqxx::field& f) { return f.is_null() ? Json() : Json(f.c_str()); }

// NULL for an empty string (a free seat).
const char* or_null(const std::string& s) { return s.empty() ? nullptr : s.c_str(); }

// A double as its shortest exact text, so a rating reads back as it was written.
std::string exact(double x) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, end);
}

// A stored JSON column; a row that does not parse is corrupt, never the caller's fault.
Json stored_json(const pqxx::field& f, std::string_view where) {
  Json j = f.is_null() ? Json(Json::value_t::discarded) : Json::parse(f.c_str(), nullptr, false);
  if (j.is_discarded()) throw StoreError(str(where) + ": " + f.name() + " is not JSON");
  return j;
}

std::int64_t stored_int(const pqxx::field& f, std::string_view where) {
  if (f.is_null()) throw StoreError(str(where) + ": " + f.name() + " is not an integer");
  return f.as<std::int64_t>();
}

int as_int(const pqxx::field& f) { return f.as<int>(); }

// The URL without its password, for logs.
std::string redacted(const std::string& url) {
  auto scheme = url.find("://");
  auto at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme == std::string::npos || at == std::string::npos) return url;
  auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

// Any constant: the key of the lock that keeps two nodes from migrating at once.
constexpr std::int64_t kMigrationLock = 0x74616e626f;

}  // namespace

// One statement runner for the connection's life: transactions and savepoints are plain SQL, as
// SQLite's are, so that a group spans jobs.
struct PgStore::Pg {
  explicit Pg(const std::string& url) : conn(url), tx(conn) {}
  pqxx::connection conn;
  pqxx::nontransaction tx;
};

PgStore::PgStore(std::unique_ptr<Pg> pg, std::string described)
    : pg_(std::move(pg)), described_(std::move(described)) {}

PgStore::~PgStore() = default;

std::unique_ptr<PgStore> PgStore::open(const std::string& url, std::string& error) {
  const std::string where = "database " + redacted(url) + ": ";
  try {
    auto store = std::unique_ptr<PgStore>(new PgStore(std::make_unique<Pg>(url), redacted(url)));
    auto& tx = store->pg_->tx;
    tx.exec0("BEGIN");
    try {
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLock);
      tx.exec0("CREATE TABLE IF NOT EXISTS tanbo_schema (version INTEGER NOT NULL)");
      auto v = tx.exec("SELECT version FROM tanbo_schema");
      int current = 0;
      if (v.empty())
        tx.exec0("INSERT INTO tanbo_schema (version) VALUES (0)");
      else
        current = v[0][0].as<int>();
      if (current > kSchemaVersion) {
        tx.exec0("ROLLBACK");
        error = where + newer_schema(current, kSchemaVersion);
        return nullptr;
      }
      for (int n = current + 1; n <= kSchemaVersion; ++n) tx.exec0(migration(Dialect::postgres, n));
      tx.exec_params0("UPDATE tanbo_schema SET version = $1", kSchemaVersion);
      tx.exec0("COMMIT");
    } catch (const std::exception& e) {
      try {
        tx.exec0("ROLLBACK");
      } catch (...) {  // the connection is gone: nothing to roll back
      }
      error = where + "schema migration failed: " + e.what();
      return nullptr;
    }
    store->pg_->conn.prepare(
        "append",
        "INSERT INTO actions (room, version, game_no, seat, action, at, clocks) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)");
    store->pg_->conn.prepare(
        "current",
        "SELECT g.seq, g.game_no, r.players, g.finished_at IS NOT NULL, r.ranked, r.game "
        "FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no WHERE r.id = $1");
    return store;
  } catch (const std::exception& e) {
    error = where + e.what();
    return nullptr;
  }
}

template <class... Args>
pqxx::result PgStore::run(const std::string& sql, Args&&... args) {
  return pg_->tx.exec_params(sql, std::forward<Args>(args)...);
}

// --- Group commit: transactions and savepoints as plain SQL, as SqliteStore has them. ---

bool PgStore::begin_group() {
  if (grouped_) return true;
  try {
    pg_->tx.exec0("BEGIN");
    grouped_ = true;
    group_lost_ = false;
  } catch (const std::exception&) {
    grouped_ = false;
  }
  return grouped_;
}

bool PgStore::end_group(std::string& error) {
  if (!grouped_) return true;
  grouped_ = false;
  try {
    if (group_lost_) throw StoreError("the transaction was lost to a failure inside it");
    // An aborted transaction would COMMIT as a ROLLBACK without an error: group_lost_ says so.
    pg_->tx.exec0("COMMIT");
    return true;
  } catch (const std::exception& e) {
    error = e.what();
  }
  try {
    pg_->tx.exec0("ROLLBACK");
  } catch (...) {  // the connection is gone, and the transaction with it
  }
  healthy_.store(false, std::memory_order_relaxed);
  return false;
}

// One transaction around body(), or one savepoint inside the group's; a refusal from body rolls
// it back like a failure does. PostgreSQL aborts a whole transaction on an error, so a failed
// write must roll back to its savepoint before the group can go on.
template <class F>
WriteResult PgStore::write(std::string_view what, F&& body) {
  const bool grouped = grouped_;
  auto failed = [&](std::string message) {
    healthy_.store(false, std::memory_order_relaxed);
    return refuse(Code::failed, str(what) + ": " + message);
  };
  if (grouped && group_lost_) return failed("the group's transaction was lost");
  try {
    pg_->tx.exec0(grouped ? "SAVEPOINT w" : "BEGIN");
  } catch (const std::exception& e) {
    if (grouped) group_lost_ = true;
    return failed(e.what());
  }
  WriteResult r;
  try {
    r = body();
  } catch (const pqxx::unique_violation& e) {
    r = refuse(Code::duplicate, str(what) + ": " + e.what());
  } catch (const pqxx::foreign_key_violation& e) {
    r = refuse(Code::not_found, str(what) + ": " + e.what());
  } catch (const pqxx::integrity_constraint_violation& e) {
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const pqxx::data_exception& e) {  // a value PostgreSQL cannot hold (a NUL byte)
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const Json::exception& e) {  // a JSON value that cannot be written (bad UTF-8)
    r = refuse(Code::invalid, str(what) + ": " + e.what());
  } catch (const std::exception& e) {
    r = refuse(Code::failed, str(what) + ": " + e.what());
  }
  try {
    if (r.ok())
      pg_->tx.exec0(grouped ? "RELEASE w" : "COMMIT");
    else
      pg_->tx.exec0(grouped ? "ROLLBACK TO w; RELEASE w" : "ROLLBACK");
  } catch (const std::exception& e) {
    if (grouped) {
      group_lost_ = true;
    } else {
      try {
        pg_->tx.exec0("ROLLBACK");
      } catch (...) {  // the connection is gone
      }
    }
    return failed(e.what());
  }
  if (r.code == Code::failed) healthy_.store(false, std::memory_order_relaxed);
  return r;
}

// A read: a database failure is a StoreError; inside a group it also dooms the transaction.
template <class F>
auto PgStore::read(std::string_view what, F&& body) -> decltype(body()) {
  try {
    return body();
  } catch (const pqxx::failure& e) {
    if (grouped_) group_lost_ = true;
    throw StoreError(str(what) + ": " + e.what());
  }
}

namespace {

std::optional<Current> current_game(pqxx::nontransaction& tx, std::string_view room) {
  auto rows = tx.exec_prepared("current", str(room));
  if (rows.empty()) return std::nullopt;
  const auto& q = rows[0];
  return Current{q[0].as<std::int64_t>(), as_int(q[1]),      as_int(q[2]),
                 q[3].as<bool>(),         as_int(q[4]) != 0, text(q[5])};
}

}  // namespace

// --- The statement runner of the store logic written once ---

std::vector<Store::SqlRow> PgStore::query(const std::string& sql,
                                          const std::vector<SqlValue>& params) {
  std::vector<std::string> texts(params.size());
  std::vector<const char*> values(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    if (sql_null(params[i])) continue;  // a null pointer is NULL
    if (auto d = std::get_if<double>(&params[i]))
      texts[i] = exact(*d);
    else
      texts[i] = sql_text(params[i]);
    values[i] = texts[i].c_str();
  }
  auto result = pg_->tx.exec_params(sql, pqxx::prepare::make_dynamic_params(values));
  std::vector<SqlRow> rows;
  for (const auto& r : result) {
    SqlRow row;
    for (const auto& f : r) {
      if (f.is_null()) {
        row.emplace_back(nullptr);
        continue;
      }
      // Integers and real numbers by their column type (INT8 20, INT4 23, INT2 21, FLOAT8 701).
      const auto type = f.type();
      if (type == 20 || type == 21 || type == 23)
        row.emplace_back(f.as<std::int64_t>());
      else if (type == 700 || type == 701)
        row.emplace_back(f.as<double>());
      else if (type == 16)
        row.emplace_back(std::int64_t(f.as<bool>()));
      else
        row.emplace_back(std::string(f.c_str()));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

WriteResult PgStore::transact(std::string_view what, const std::function<WriteResult()>& body) {
  return write(what, body);
}

void PgStore::reading(std::string_view what, const std::function<void()>& body) {
  read(what, [&] {
    body();
    return 0;
  });
}

// --- Rooms and games ---

WriteResult PgStore::create_room(const RoomRow& row) {
  return write("create_room " + row.id, [&]() -> WriteResult {
    if (row.id.empty() || row.game.empty())
      return refuse(Code::invalid, "a room needs an id and a game");
    if (row.players < 1 || row.seats.size() != std::size_t(row.players))
      return refuse(Code::invalid, "a room needs one seat entry per player");
    if (row.first < 0 || row.first >= row.players)
      return refuse(Code::invalid, "first: no such seat");
    if (!row.options.is_object()) return refuse(Code::invalid, "options: expected an object");
    if (auto p = seed_problem(row.seed, row.commit)) return refuse(Code::invalid, *p);
    run("INSERT INTO rooms (id, game, options, setup, players, ranked, timer, created_at, "
        "game_no) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)",
        row.id, row.game, row.options.dump(), row.setup.dump(), row.players, int(row.ranked),
        row.timer.dump(), std::int64_t(row.created_at));
    for (int s = 0; s < row.players; ++s)
      run("INSERT INTO seats (room, seat, identity) VALUES ($1, $2, $3)", row.id, s,
          or_null(row.seats[std::size_t(s)]));
    // R5: game 1 follows the room's options, so its first seat was drawn exactly when they
    // leave it to chance (the registry draws for any string value).
    const bool drawn = row.options.contains("first") && row.options["first"].is_string();
    run("INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, started_at) "
        "VALUES ($1, 1, $2, $3, $4, $5, $6)",
        row.id, row.seed, row.commit, int(row.first), int(drawn), std::int64_t(row.created_at));
    return {};
  });
}

WriteResult PgStore::set_seat(std::string_view room, Seat seat, std::string_view player) {
  return write("set_seat " + str(room), [&]() -> WriteResult {
    const std::string p = str(player);
    auto r = run("UPDATE seats SET identity = $1 WHERE room = $2 AND seat = $3", or_null(p),
                 str(room), int(seat));
    if (r.affected_rows() == 0)
      return refuse(Code::not_found, "no seat " + std::to_string(seat) + " in room " + str(room));
    return {};
  });
}

WriteResult PgStore::append_action(std::string_view room, int game_no, std::int64_t version,
                                   Seat seat, const Json& action, const Json& clocks,
                                   std::int64_t at) {
  return write("append_action " + str(room), [&]() -> WriteResult {
    auto current = current_game(pg_->tx, room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (current->game_no != game_no) return not_current(room, game_no, *current);
    if (current->finished)
      return refuse(Code::invalid, "game " + game_id(room, game_no) + " is over");
    if (seat < 0 || seat >= current->players)
      return refuse(Code::invalid, "no seat " + std::to_string(seat));
    pg_->tx.exec_prepared("append", str(room), std::int64_t(version), game_no, int(seat),
                          action.dump(), at != 0 ? at : std::int64_t(now_ms()), clocks.dump());
    return {};
  });
}

WriteResult PgStore::start_rematch(std::string_view room, int game_no, std::string_view seed_hex,
                                   std::string_view commit, Seat first, bool first_drawn,
                                   std::int64_t started_at) {
  return write("start_rematch " + str(room), [&]() -> WriteResult {
    auto current = current_game(pg_->tx, room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (!current->finished)
      return refuse(Code::invalid, "game " + game_id(room, current->game_no) + " is not over");
    if (game_no != current->game_no + 1)
      return refuse(Code::invalid, "the next game of room " + str(room) + " is " +
                                       std::to_string(current->game_no + 1));
    if (first < 0 || first >= current->players) return refuse(Code::invalid, "first: no such seat");
    if (auto p = seed_problem(seed_hex, commit)) return refuse(Code::invalid, *p);
    run("INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, started_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)",
        str(room), game_no, str(seed_hex), str(commit), int(first), int(first_drawn),
        std::int64_t(started_at ? started_at : now_ms()));
    run("UPDATE rooms SET game_no = $1 WHERE id = $2", game_no, str(room));
    return {};
  });
}

WriteResult PgStore::finish_game(std::string_view room, int game_no, const Json& result,
                                 std::int64_t finished_at) {
  return write("finish_game " + str(room), [&]() -> WriteResult {
    auto current = current_game(pg_->tx, room);
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
    for (const auto& q : run("SELECT seat, identity FROM seats WHERE room = $1", str(room))) {
      int s = as_int(q[0]);
      if (s >= 0 && s < current->players) seats[std::size_t(s)] = text(q[1]);
    }

    // M7: ratings change only between distinct identities holding every seat of a ranked room.
    std::vector<std::string> before(seats.size()), after(seats.size());  // "" is NULL
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
      for (std::size_t s = 0; s < seats.size(); ++s) {
        before[s] = exact(ratings[s]);
        after[s] = exact(updated[s]);
        run("INSERT INTO ratings (identity, game, rating, games) VALUES ($1, $2, $3, 1) "
            "ON CONFLICT (identity, game) DO UPDATE SET rating = excluded.rating, "
            "games = ratings.games + 1",
            seats[s], current->game, after[s]);
      }
    }

    for (std::size_t s = 0; s < seats.size(); ++s)
      run("INSERT INTO game_players (game_seq, seat, identity, rating_before, rating_after) "
          "VALUES ($1, $2, $3, $4, $5)",
          std::int64_t(current->seq), int(s), or_null(seats[s]), or_null(before[s]),
          or_null(after[s]));
    run("UPDATE games SET finished_at = $1, result = $2 WHERE seq = $3", std::int64_t(finished_at),
        checked->dump(), std::int64_t(current->seq));
    return {};
  });
}

WriteResult PgStore::set_timer(std::string_view room, const Json& timer) {
  return write("set_timer " + str(room), [&]() -> WriteResult {
    auto r = run("UPDATE rooms SET timer = $1 WHERE id = $2", timer.dump(), str(room));
    if (r.affected_rows() == 0) return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

WriteResult PgStore::abandon_room(std::string_view room, std::int64_t at) {
  return write("abandon_room " + str(room), [&]() -> WriteResult {
    auto r = run("UPDATE rooms SET abandoned_at = $1 WHERE id = $2", std::int64_t(at), str(room));
    if (r.affected_rows() == 0) return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

std::vector<LoadedRoom> PgStore::load_unfinished(const Log& log,
                                                 std::optional<std::int64_t> finished_since) {
  return load_rooms(log, std::nullopt, finished_since);
}

std::optional<LoadedRoom> PgStore::load_room(std::string_view id, const Log& log,
                                             std::optional<std::int64_t> finished_since) {
  auto rooms = load_rooms(log, id, finished_since);
  if (rooms.empty()) return std::nullopt;
  return std::move(rooms.front());
}

std::vector<LoadedRoom> PgStore::load_rooms(const Log& log, std::optional<std::string_view> only,
                                            std::optional<std::int64_t> finished_since) {
  const std::string what = only ? "load_room " + str(*only) : std::string("load_unfinished");
  return read(what, [&] {
    std::vector<LoadedRoom> rooms;
    const std::string unfinished =
        "SELECT r.id, r.game, r.options, r.setup, r.players, r.ranked, r.timer, "
        "r.created_at, r.game_no, g.seed, g.commitment, g.first, g.first_drawn, "
        "g.started_at, g.finished_at FROM rooms r "
        "JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
        "WHERE r.abandoned_at IS NULL AND " +
        live_game_sql(finished_since);
    const std::string order = " ORDER BY r.created_at, r.id" C_ORDER;
    auto all =
        only ? run(unfinished + " AND r.id = $1" + order, str(*only)) : run(unfinished + order);
    for (const auto& q : all) {
      const std::string id = text(q[0]);
      try {
        const std::string where = "room " + id;
        LoadedRoom loaded;
        RoomRow& row = loaded.row;
        row.id = id;
        row.game = text(q[1]);
        const engine::GameInfo* info = engine::find_game(row.game);
        if (!info) throw StoreError(where + ": unknown game '" + row.game + "'");
        row.options = stored_json(q[2], where);
        if (!row.options.is_object()) throw StoreError(where + ": options is not an object");
        row.setup = stored_json(q[3], where);
        row.players = int(stored_int(q[4], where));
        if (row.players < info->min_players || row.players > info->max_players)
          throw StoreError(where + ": " + std::to_string(row.players) + " players in " + row.game);
        auto ranked = stored_int(q[5], where);
        if (ranked != 0 && ranked != 1) throw StoreError(where + ": ranked is not 0 or 1");
        row.ranked = ranked == 1;
        row.timer = stored_json(q[6], where);
        row.created_at = stored_int(q[7], where);
        row.game_no = int(stored_int(q[8], where));
        row.seed = text(q[9]);
        row.commit = text(q[10]);
        if (auto p = seed_problem(row.seed, row.commit)) throw StoreError(where + ": " + *p);
        row.first = Seat(stored_int(q[11], where));
        if (row.first < 0 || row.first >= row.players)
          throw StoreError(where + ": first is no seat");
        auto drawn = stored_int(q[12], where);
        if (drawn != 0 && drawn != 1) throw StoreError(where + ": first_drawn is not 0 or 1");
        row.first_drawn = drawn == 1;
        loaded.started_at = stored_int(q[13], where);
        loaded.finished_at = q[14].is_null() ? 0 : stored_int(q[14], where);

        row.seats.assign(std::size_t(row.players), std::string());
        std::vector<bool> seen(std::size_t(row.players));
        for (const auto& sq : run("SELECT seat, identity FROM seats WHERE room = $1", id)) {
          auto s = stored_int(sq[0], where);
          if (s < 0 || s >= row.players || seen[std::size_t(s)])
            throw StoreError(where + ": bad seat row");
          seen[std::size_t(s)] = true;
          row.seats[std::size_t(s)] = text(sq[1]);
        }
        for (bool b : seen)
          if (!b) throw StoreError(where + ": a seat row is missing");

        for (const auto& aq : run("SELECT version, seat, action, at, clocks FROM actions "
                                  "WHERE room = $1 AND game_no = $2 ORDER BY version",
                                  id, row.game_no)) {
          LoggedAction a{stored_int(aq[0], where), Seat(stored_int(aq[1], where)),
                         stored_json(aq[2], where + " action"), stored_int(aq[3], where),
                         stored_json(aq[4], where + " clocks")};
          if (a.seat < 0 || a.seat >= row.players)
            throw StoreError(where + ": an action's seat is no seat");
          loaded.actions.push_back(std::move(a));
        }
        loaded.version =
            run("SELECT coalesce(max(version), 0) FROM actions WHERE room = $1", id)[0][0]
                .as<std::int64_t>();
        rooms.push_back(std::move(loaded));
      } catch (const StoreError& e) {
        if (log) log("store: room " + id + " set aside, it cannot be loaded: " + e.what());
      } catch (const pqxx::conversion_error& e) {
        if (log) log("store: room " + id + " set aside, it cannot be loaded: " + e.what());
      }
    }
    return rooms;
  });
}

// --- Records ---

Json PgStore::players_info(std::int64_t game_seq, bool finished, std::string_view room) {
  Json out = Json::array();
  if (finished) {
    for (const auto& q :
         run("SELECT gp.seat, gp.identity, i.name, gp.rating_before, gp.rating_after "
             "FROM game_players gp LEFT JOIN identities i ON i.id = gp.identity "
             "WHERE gp.game_seq = $1 ORDER BY gp.seat",
             std::int64_t(game_seq))) {
      Json p{{"seat", as_int(q[0])}, {"id", text_or_null(q[1])}, {"name", text_or_null(q[2])}};
      if (!q[3].is_null()) p["rating_before"] = rounded(q[3].as<double>());
      if (!q[4].is_null()) p["rating_after"] = rounded(q[4].as<double>());
      out.push_back(std::move(p));
    }
  } else {
    for (const auto& q : run("SELECT s.seat, s.identity, i.name FROM seats s "
                             "LEFT JOIN identities i ON i.id = s.identity "
                             "WHERE s.room = $1 ORDER BY s.seat",
                             str(room)))
      out.push_back(
          {{"seat", as_int(q[0])}, {"id", text_or_null(q[1])}, {"name", text_or_null(q[2])}});
  }
  return out;
}

std::optional<Json> PgStore::game_record(std::string_view id) {
  auto dash = id.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  std::int64_t game_no = 0;
  if (!parse_int(id.substr(dash + 1), game_no) || game_no < 1 || game_no > 1'000'000'000)
    return std::nullopt;
  const std::string room = str(id.substr(0, dash));
  return read("game_record " + str(id), [&]() -> std::optional<Json> {
    auto rows =
        run("SELECT g.seq, r.game, r.options, r.setup, r.players, r.ranked, g.seed, "
            "g.commitment, g.first, g.first_drawn, g.started_at, g.finished_at, g.result "
            "FROM games g JOIN rooms r ON r.id = g.room WHERE g.room = $1 AND g.game_no = $2",
            room, game_no);
    if (rows.empty()) return std::nullopt;
    const auto& q = rows[0];
    const std::string where = "game " + str(id);
    const bool finished = !q[11].is_null();
    Json actions = Json::array();
    for (const auto& aq : run("SELECT seat, action FROM actions WHERE room = $1 AND game_no = $2 "
                              "ORDER BY version",
                              room, game_no))
      actions.push_back({{"seat", as_int(aq[0])}, {"action", stored_json(aq[1], where)}});
    Json record{
        {"id", str(id)},
        {"room", room},
        {"game_no", game_no},
        {"game", text(q[1])},
        {"options", game_options(stored_json(q[2], where), as_int(q[8]), as_int(q[9]) != 0)},
        {"setup", stored_json(q[3], where)},
        {"players", as_int(q[4])},
        {"ranked", as_int(q[5]) != 0},
        {"commit", text(q[7])},
        {"first", as_int(q[8])},
        {"status", finished ? "finished" : "playing"},
        {"actions", std::move(actions)},
        {"players_info", players_info(q[0].as<std::int64_t>(), finished, room)},
        {"started_at", q[10].as<std::int64_t>()},
        {"finished_at", finished ? Json(q[11].as<std::int64_t>()) : Json()},
        {"result", finished ? stored_json(q[12], where) : Json()},
    };
    // R1: the seed is revealed only once the game is over.
    if (finished) record["seed"] = text(q[6]);
    return record;
  });
}

// Rows of (seq, room, game_no, game, players, ranked, started_at, finished_at, result).
Json PgStore::summaries(const pqxx::result& rows) {
  Json out = Json::array();
  for (const auto& q : rows) {
    const std::string room = text(q[1]);
    const int game_no = as_int(q[2]);
    const std::string where = "game " + game_id(room, game_no);
    const auto seq = q[0].as<std::int64_t>();
    const auto finished_at = q[7].as<std::int64_t>();
    out.push_back({{"id", game_id(room, game_no)},
                   {"room", room},
                   {"game_no", game_no},
                   {"game", text(q[3])},
                   {"players", as_int(q[4])},
                   {"ranked", as_int(q[5]) != 0},
                   {"players_info", players_info(seq, true, room)},
                   {"started_at", q[6].as<std::int64_t>()},
                   {"finished_at", finished_at},
                   {"result", stored_json(q[8], where)},
                   {"cursor", std::to_string(finished_at) + "." + std::to_string(seq)}});
  }
  return out;
}

Json PgStore::list_games(const std::optional<std::string>& player,
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
  const std::string finished_at = cursor ? std::to_string(cursor->finished_at) : "";
  const std::string seq = cursor && cursor->seq ? std::to_string(*cursor->seq) : "";
  return read("list_games", [&]() -> Json {
    auto rows = run(
        "SELECT g.seq, g.room, g.game_no, r.game, r.players, r.ranked, g.started_at, "
        "g.finished_at, g.result FROM games g JOIN rooms r ON r.id = g.room "
        "WHERE g.finished_at IS NOT NULL AND ($1::text IS NULL OR r.game = $1) "
        "AND ($2::text IS NULL OR EXISTS (SELECT 1 FROM game_players gp "
        "     WHERE gp.game_seq = g.seq AND gp.identity = $2)) "
        "AND ($3::bigint IS NULL OR g.finished_at < $3 "
        "     OR (g.finished_at = $3 AND g.seq < $4::bigint)) "
        "ORDER BY g.finished_at DESC, g.seq DESC LIMIT $5",
        game ? game->c_str() : nullptr, player ? player->c_str() : nullptr, or_null(finished_at),
        or_null(seq), limit + 1);  // one more tells whether a next page exists
    Json games = summaries(rows);
    Json next;
    if (games.size() > std::size_t(limit)) {
      games.erase(games.end() - 1);
      next = games.back()["cursor"];
    }
    for (auto& g : games) g.erase("cursor");
    return {{"games", std::move(games)}, {"next", std::move(next)}};
  });
}

// --- Identities ---

WriteResult PgStore::set_name(std::string_view id, std::string_view name) {
  if (auto bad = validate_name(name)) return refuse(Code::invalid, *bad);
  return write("set_name " + str(id), [&]() -> WriteResult {
    auto r = run("UPDATE identities SET name = $1 WHERE id = $2", str(name), str(id));
    if (r.affected_rows() == 0) return refuse(Code::not_found, "no identity " + str(id));
    return {};
  });
}

// --- Ratings ---

double PgStore::rating(std::string_view identity, std::string_view game) {
  return read("rating", [&] {
    auto rows = run("SELECT rating FROM ratings WHERE identity = $1 AND game = $2", str(identity),
                    str(game));
    return rows.empty() ? kInitialRating : rows[0][0].as<double>();
  });
}

std::optional<Json> PgStore::player(std::string_view id, int recent) {
  auto out = read("player " + str(id), [&]() -> std::optional<Json> {
    auto rows = run("SELECT name FROM identities WHERE id = $1", str(id));
    if (rows.empty()) return std::nullopt;
    Json out{{"id", str(id)}, {"name", text(rows[0][0])}, {"ratings", Json::object()}};
    for (const auto& q : run("SELECT game, rating, games FROM ratings WHERE identity = $1 "
                             "ORDER BY game" C_ORDER,
                             str(id)))
      out["ratings"][text(q[0])] = {{"rating", rounded(q[1].as<double>())},
                                    {"games", q[2].as<std::int64_t>()}};
    return out;
  });
  if (out) (*out)["recent"] = list_games(str(id), std::nullopt, recent, std::nullopt)["games"];
  return out;
}

Json PgStore::leaderboard(std::string_view game, int limit) {
  return read("leaderboard", [&] {
    Json out = Json::array();
    for (const auto& q : run("SELECT r.identity, i.name, r.rating, r.games FROM ratings r "
                             "LEFT JOIN identities i ON i.id = r.identity WHERE r.game = $1 "
                             "ORDER BY r.rating DESC, r.identity" C_ORDER " LIMIT $2",
                             str(game), std::clamp(limit, 1, 1000)))
      out.push_back({{"rank", out.size() + 1},
                     {"id", text(q[0])},
                     {"name", text_or_null(q[1])},
                     {"rating", rounded(q[2].as<double>())},
                     {"games", q[3].as<std::int64_t>()}});
    return out;
  });
}

}  // namespace tanbo::server::store
