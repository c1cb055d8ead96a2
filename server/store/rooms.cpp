// Rooms, written once over both databases: creation, seats, actions, rematches, finishes, loading.
#include <set>

#include "engine/core/registry.hpp"
#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

std::optional<Current> Store::current_game(std::string_view room) {
  auto rows = query(
      "SELECT g.seq, g.game_no, r.players, g.finished_at IS NOT NULL, r.ranked, r.game "
      "FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no WHERE r.id = $1",
      {str(room)});
  if (rows.empty()) return std::nullopt;
  const auto& r = rows[0];
  return Current{sql_int(r[0]),      int(sql_int(r[1])), int(sql_int(r[2])),
                 sql_int(r[3]) != 0, sql_int(r[4]) != 0, sql_text(r[5])};
}

WriteResult Store::create_room(const RoomRow& row) {
  return transact("create_room " + row.id, [&]() -> WriteResult {
    if (row.id.empty() || row.game.empty())
      return refuse(Code::invalid, "a room needs an id and a game");
    if (row.players < 1 || row.seats.size() != std::size_t(row.players))
      return refuse(Code::invalid, "a room needs one seat entry per player");
    if (row.first < 0 || row.first >= row.players)
      return refuse(Code::invalid, "first: no such seat");
    if (!row.options.is_object()) return refuse(Code::invalid, "options: expected an object");
    if (auto p = seed_problem(row.seed, row.commit)) return refuse(Code::invalid, *p);
    query(
        "INSERT INTO rooms (id, game, options, setup, players, ranked, timer, created_at, "
        "game_no) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1)",
        {row.id, row.game, row.options.dump(), row.setup.dump(), std::int64_t(row.players),
         std::int64_t(row.ranked), row.timer.dump(), row.created_at});
    for (int s = 0; s < row.players; ++s)
      query("INSERT INTO seats (room, seat, identity) VALUES ($1, $2, $3)",
            {row.id, std::int64_t(s), or_null(row.seats[std::size_t(s)])});
    // R5: game 1 follows the room's options, so its first seat was drawn exactly when they
    // leave it to chance (the registry draws for any string value).
    const bool drawn = row.options.contains("first") && row.options["first"].is_string();
    query(
        "INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, started_at) "
        "VALUES ($1, 1, $2, $3, $4, $5, $6)",
        {row.id, row.seed, row.commit, std::int64_t(row.first), std::int64_t(drawn),
         row.created_at});
    return {};
  });
}

WriteResult Store::take_room(std::string_view room, std::int64_t& epoch) {
  return transact_one("take_room " + str(room), [&]() -> WriteResult {
    auto rows =
        query("UPDATE rooms SET epoch = epoch + 1 WHERE id = $1 RETURNING epoch", {str(room)});
    if (rows.empty()) return refuse(Code::not_found, "no room " + str(room));
    epoch = sql_int(rows[0][0]);
    return {};
  });
}

WriteResult Store::check_epoch(std::string_view room, std::int64_t epoch) {
  return transact_one("check_epoch " + str(room), [&]() -> WriteResult {
    auto rows = query("SELECT epoch FROM rooms WHERE id = $1" + row_lock(), {str(room)});
    if (rows.empty()) return refuse(Code::not_found, "no room " + str(room));
    if (const auto now = sql_int(rows[0][0]); now != epoch)
      return refuse(Code::fenced, "room " + str(room) + " was taken over: epoch " +
                                      std::to_string(now) + ", not " + std::to_string(epoch));
    return {};
  });
}

WriteResult Store::set_seat(std::string_view room, Seat seat, std::string_view player) {
  return transact("set_seat " + str(room), [&]() -> WriteResult {
    if (query("UPDATE seats SET identity = $1 WHERE room = $2 AND seat = $3 RETURNING seat",
              {or_null(player), str(room), std::int64_t(seat)})
            .empty())
      return refuse(Code::not_found, "no seat " + std::to_string(seat) + " in room " + str(room));
    return {};
  });
}

// The hot write: one statement that inserts the action only if its game is the room's current,
// unfinished one and the seat is the room's; when it inserts nothing, the reads below say why.
WriteResult Store::append_action(std::string_view room, int game_no, std::int64_t version,
                                 Seat seat, const Json& action, const Json& clocks, std::int64_t at,
                                 std::string_view by) {
  return transact_one("append_action " + str(room), [&]() -> WriteResult {
    if (execute("INSERT INTO actions (room, version, game_no, seat, action, at, clocks, "
                "decided_by) "
                "SELECT r.id, CAST($1 AS BIGINT), g.game_no, CAST($2 AS INTEGER), "
                "CAST($3 AS TEXT), CAST($4 AS BIGINT), CAST($5 AS TEXT), CAST($6 AS TEXT) "
                "FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
                "WHERE r.id = $7 AND r.game_no = CAST($8 AS INTEGER) AND g.finished_at IS NULL "
                "AND CAST($2 AS INTEGER) >= 0 AND CAST($2 AS INTEGER) < r.players",
                {version, std::int64_t(seat), action.dump(), at != 0 ? at : now_ms(), clocks.dump(),
                 or_null(by), str(room), std::int64_t(game_no)}) == 1)
      return {};
    auto current = current_game(room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (current->game_no != game_no) return not_current(room, game_no, *current);
    if (current->finished)
      return refuse(Code::invalid, "game " + game_id(room, game_no) + " is over");
    return refuse(Code::invalid, "no seat " + std::to_string(seat));
  });
}

WriteResult Store::start_rematch(std::string_view room, int game_no, std::string_view seed_hex,
                                 std::string_view commit, Seat first, bool first_drawn,
                                 std::int64_t started_at) {
  return transact("start_rematch " + str(room), [&]() -> WriteResult {
    auto current = current_game(room);
    if (!current) return refuse(Code::not_found, "no room " + str(room));
    if (!current->finished)
      return refuse(Code::invalid, "game " + game_id(room, current->game_no) + " is not over");
    if (game_no != current->game_no + 1)
      return refuse(Code::invalid, "the next game of room " + str(room) + " is " +
                                       std::to_string(current->game_no + 1));
    if (first < 0 || first >= current->players) return refuse(Code::invalid, "first: no such seat");
    if (auto p = seed_problem(seed_hex, commit)) return refuse(Code::invalid, *p);
    query(
        "INSERT INTO games (room, game_no, seed, commitment, first, first_drawn, started_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7)",
        {str(room), std::int64_t(game_no), str(seed_hex), str(commit), std::int64_t(first),
         std::int64_t(first_drawn), started_at ? started_at : now_ms()});
    query("UPDATE rooms SET game_no = $1 WHERE id = $2", {std::int64_t(game_no), str(room)});
    return {};
  });
}

WriteResult Store::finish_game(std::string_view room, int game_no, const Json& result,
                               std::int64_t finished_at, Json* ratings_out) {
  return transact("finish_game " + str(room), [&]() -> WriteResult {
    if (ratings_out) *ratings_out = nullptr;
    auto current = current_game(room);
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
    for (const auto& r : query("SELECT seat, identity FROM seats WHERE room = $1", {str(room)})) {
      const auto s = sql_int(r[0]);
      if (s >= 0 && s < current->players) seats[std::size_t(s)] = sql_text(r[1]);
    }

    // M7: ratings change only between distinct identities holding every seat of a ranked room.
    std::vector<SqlValue> before(seats.size()), after(seats.size());  // NULL: unrated
    std::set<std::string> distinct(seats.begin(), seats.end());
    if (current->ranked && seats.size() >= 2 && distinct.size() == seats.size() &&
        !distinct.contains("")) {
      std::vector<int> places;
      std::vector<double> ratings;
      for (std::size_t s = 0; s < seats.size(); ++s) {
        places.push_back((*checked)["places"][s].get<int>());
        ratings.push_back(rating(seats[s], current->game));
      }
      // A seat whose last decision the computer made for its absent player left the game: it
      // is rated below every other seat (those left share that place), whatever the computer
      // won for it; the others keep their order among themselves (docs/rules.md, "Results").
      if (auto it = checked->find("takeover"); it != checked->end())
        for (const Json& seat : *it) places[seat.get<std::size_t>()] = current->players + 1;
      auto updated = elo_updates(places, ratings);
      if (ratings_out) *ratings_out = Json::array();
      for (std::size_t s = 0; s < seats.size(); ++s) {
        before[s] = ratings[s];
        after[s] = updated[s];
        if (ratings_out)
          ratings_out->push_back({{"before", rounded(ratings[s])}, {"after", rounded(updated[s])}});
        // ratings.games, not games: PostgreSQL would not know whether the row's or excluded's.
        query(
            "INSERT INTO ratings (identity, game, rating, games) VALUES ($1, $2, $3, 1) "
            "ON CONFLICT (identity, game) DO UPDATE SET rating = excluded.rating, "
            "games = ratings.games + 1",
            {seats[s], current->game, updated[s]});
      }
    }

    for (std::size_t s = 0; s < seats.size(); ++s)
      query(
          "INSERT INTO game_players (game_seq, seat, identity, rating_before, rating_after) "
          "VALUES ($1, $2, $3, $4, $5)",
          {current->seq, std::int64_t(s), or_null(seats[s]), before[s], after[s]});
    query("UPDATE games SET finished_at = $1, result = $2 WHERE seq = $3",
          {finished_at, checked->dump(), current->seq});
    return {};
  });
}

WriteResult Store::set_timer(std::string_view room, const Json& timer) {
  return transact("set_timer " + str(room), [&]() -> WriteResult {
    if (query("UPDATE rooms SET timer = $1 WHERE id = $2 RETURNING id", {timer.dump(), str(room)})
            .empty())
      return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

WriteResult Store::abandon_room(std::string_view room, std::int64_t at) {
  return transact("abandon_room " + str(room), [&]() -> WriteResult {
    if (query("UPDATE rooms SET abandoned_at = $1 WHERE id = $2 RETURNING id", {at, str(room)})
            .empty())
      return refuse(Code::not_found, "no room " + str(room));
    return {};
  });
}

// --- Loading: a restart restores every room, a cluster node one room it takes over ---

std::vector<LoadedRoom> Store::load_unfinished(const Log& log,
                                               std::optional<std::int64_t> finished_since) {
  return load_rooms(log, std::nullopt, finished_since);
}

std::optional<LoadedRoom> Store::load_room(std::string_view id, const Log& log,
                                           std::optional<std::int64_t> finished_since) {
  auto rooms = load_rooms(log, id, finished_since);
  if (rooms.empty()) return std::nullopt;
  return std::move(rooms.front());
}

// The room's and its current game's columns of load_rooms' query, checked.
LoadedRoom Store::room_of(const SqlRow& q, const std::string& where) {
  LoadedRoom loaded;
  RoomRow& row = loaded.row;
  row.id = sql_text(q[0]);
  row.game = sql_text(q[1]);
  const engine::GameInfo* info = engine::find_game(row.game);
  if (!info) throw StoreError(where + ": unknown game '" + row.game + "'");
  row.options = stored_json(q[2], where, "options");
  if (!row.options.is_object()) throw StoreError(where + ": options is not an object");
  row.setup = stored_json(q[3], where, "setup");
  row.players = int(stored_int(q[4], where, "players"));
  if (row.players < info->min_players || row.players > info->max_players)
    throw StoreError(where + ": " + std::to_string(row.players) + " players in " + row.game);
  auto ranked = stored_int(q[5], where, "ranked");
  if (ranked != 0 && ranked != 1) throw StoreError(where + ": ranked is not 0 or 1");
  row.ranked = ranked == 1;
  row.timer = stored_json(q[6], where, "timer");
  row.created_at = stored_int(q[7], where, "created_at");
  row.game_no = int(stored_int(q[8], where, "game_no"));
  row.seed = sql_text(q[9]);
  row.commit = sql_text(q[10]);
  if (auto p = seed_problem(row.seed, row.commit)) throw StoreError(where + ": " + *p);
  row.first = Seat(stored_int(q[11], where, "first"));
  if (row.first < 0 || row.first >= row.players) throw StoreError(where + ": first is no seat");
  auto drawn = stored_int(q[12], where, "first_drawn");
  if (drawn != 0 && drawn != 1) throw StoreError(where + ": first_drawn is not 0 or 1");
  row.first_drawn = drawn == 1;
  loaded.started_at = stored_int(q[13], where, "started_at");
  loaded.epoch = stored_int(q[17], where, "epoch");
  loaded.finished_at = sql_null(q[14]) ? 0 : stored_int(q[14], where, "finished_at");
  return loaded;
}

void Store::load_seats(RoomRow& row, const std::string& where) {
  row.seats.assign(std::size_t(row.players), std::string());
  std::vector<bool> seen(std::size_t(row.players));
  for (const auto& sq : query("SELECT seat, identity FROM seats WHERE room = $1", {row.id})) {
    auto s = stored_int(sq[0], where, "seat");
    if (s < 0 || s >= row.players || seen[std::size_t(s)])
      throw StoreError(where + ": bad seat row");
    seen[std::size_t(s)] = true;
    row.seats[std::size_t(s)] = sql_text(sq[1]);
  }
  for (bool b : seen)
    if (!b) throw StoreError(where + ": a seat row is missing");
}

void Store::load_actions(LoadedRoom& loaded, const std::string& where) {
  const RoomRow& row = loaded.row;
  for (const auto& aq : query("SELECT version, seat, action, at, clocks, decided_by FROM actions "
                              "WHERE room = $1 AND game_no = $2 ORDER BY version",
                              {row.id, std::int64_t(row.game_no)})) {
    LoggedAction a{stored_int(aq[0], where, "version"),
                   Seat(stored_int(aq[1], where, "seat")),
                   stored_json(aq[2], where + " action", "action"),
                   stored_int(aq[3], where, "at"),
                   stored_json(aq[4], where + " clocks", "clocks"),
                   sql_null(aq[5]) ? std::string() : sql_text(aq[5])};
    if (a.seat < 0 || a.seat >= row.players)
      throw StoreError(where + ": an action's seat is no seat");
    loaded.actions.push_back(std::move(a));
  }
  loaded.version = sql_int(
      query("SELECT coalesce(max(version), 0) FROM actions WHERE room = $1", {row.id})[0][0]);
}

// A finished game within its retention shows its result as it was sent at the end.
void Store::load_result(LoadedRoom& loaded, const SqlRow& game, const std::string& where) {
  loaded.result = stored_json(game[15], where, "result");
  Json ratings = Json::array();
  for (const auto& gq : query("SELECT rating_before, rating_after FROM game_players "
                              "WHERE game_seq = $1 ORDER BY seat",
                              {sql_int(game[16])}))
    if (!sql_null(gq[0]) && !sql_null(gq[1]))
      ratings.push_back(
          {{"before", rounded(sql_real(gq[0]))}, {"after", rounded(sql_real(gq[1]))}});
  if (ratings.size() == std::size_t(loaded.row.players)) loaded.ratings = std::move(ratings);
}

std::vector<LoadedRoom> Store::load_rooms(const Log& log, std::optional<std::string_view> only,
                                          std::optional<std::int64_t> finished_since) {
  std::string sql =
      "SELECT r.id, r.game, r.options, r.setup, r.players, r.ranked, r.timer, r.created_at, "
      "r.game_no, g.seed, g.commitment, g.first, g.first_drawn, g.started_at, g.finished_at, "
      "g.result, g.seq, r.epoch "
      "FROM rooms r JOIN games g ON g.room = r.id AND g.game_no = r.game_no "
      "WHERE r.abandoned_at IS NULL";
  std::vector<SqlValue> params;
  if (only) {
    params.emplace_back(str(*only));
    sql += " AND r.id = $1";
  }
  if (finished_since) {
    params.emplace_back(*finished_since);
    sql +=
        " AND (g.finished_at IS NULL OR g.finished_at >= $" + std::to_string(params.size()) + ")";
  } else {
    sql += " AND g.finished_at IS NULL";
  }
  sql += " ORDER BY r.created_at, r.id" + bytewise();

  std::vector<LoadedRoom> rooms;
  reading(only ? "load_room " + str(*only) : std::string("load_unfinished"), [&] {
    for (const auto& q : query(sql, params)) {
      const std::string id = sql_text(q[0]);
      // A row that cannot be read is set aside; a database failure fails the whole load.
      try {
        const std::string where = "room " + id;
        LoadedRoom loaded = room_of(q, where);
        load_seats(loaded.row, where);
        load_actions(loaded, where);
        if (loaded.finished_at != 0) load_result(loaded, q, where);
        rooms.push_back(std::move(loaded));
      } catch (const StoreError& e) {
        if (log) log("store: room " + id + " set aside, it cannot be loaded: " + e.what());
      }
    }
  });
  return rooms;
}

}  // namespace tanbo_server::server::store
