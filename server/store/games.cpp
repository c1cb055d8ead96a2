// Game records and their listings, written once over both databases through Store::query.
#include <algorithm>

#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

Json Store::players_info(std::int64_t game_seq, bool finished, std::string_view room) {
  Json out = Json::array();
  if (finished) {
    for (const auto& q :
         query("SELECT gp.seat, gp.identity, i.name, gp.rating_before, gp.rating_after, i.bot "
               "FROM game_players gp LEFT JOIN identities i ON i.id = gp.identity "
               "WHERE gp.game_seq = $1 ORDER BY gp.seat",
               {game_seq})) {
      Json p{{"seat", sql_int(q[0])},
             {"id", sql_text_or_null(q[1])},
             {"name", sql_text_or_null(q[2])}};
      if (!sql_null(q[3])) p["rating_before"] = rounded(sql_real(q[3]));
      if (!sql_null(q[4])) p["rating_after"] = rounded(sql_real(q[4]));
      if (!sql_null(q[5]) && sql_int(q[5]) != 0) p["bot"] = true;
      out.push_back(std::move(p));
    }
  } else {
    for (const auto& q : query("SELECT s.seat, s.identity, i.name, i.bot FROM seats s "
                               "LEFT JOIN identities i ON i.id = s.identity "
                               "WHERE s.room = $1 ORDER BY s.seat",
                               {str(room)})) {
      Json p{{"seat", sql_int(q[0])},
             {"id", sql_text_or_null(q[1])},
             {"name", sql_text_or_null(q[2])}};
      if (!sql_null(q[3]) && sql_int(q[3]) != 0) p["bot"] = true;
      out.push_back(std::move(p));
    }
  }
  return out;
}

std::optional<Json> Store::game_record(std::string_view id) {
  auto dash = id.rfind('-');
  if (dash == std::string_view::npos || dash == 0) return std::nullopt;
  std::int64_t game_no = 0;
  if (!parse_int(id.substr(dash + 1), game_no) || game_no < 1 || game_no > 1'000'000'000)
    return std::nullopt;
  const std::string room = str(id.substr(0, dash));
  std::optional<Json> out;
  reading("game_record " + str(id), [&] {
    auto rows = query(
        "SELECT g.seq, r.game, r.options, r.setup, r.players, r.ranked, g.seed, g.commitment, "
        "g.first, g.first_drawn, g.started_at, g.finished_at, g.result "
        "FROM games g JOIN rooms r ON r.id = g.room WHERE g.room = $1 AND g.game_no = $2",
        {room, game_no});
    if (rows.empty()) return;
    const auto& q = rows[0];
    const std::string where = "game " + str(id);
    const bool finished = !sql_null(q[11]);
    Json actions = Json::array();
    // An action the computer chose for the seat says why (`by`), as its event did.
    for (const auto& aq : query("SELECT seat, action, decided_by FROM actions "
                                "WHERE room = $1 AND game_no = $2 ORDER BY version",
                                {room, game_no})) {
      Json a{{"seat", sql_int(aq[0])}, {"action", stored_json(aq[1], where, "action")}};
      if (!sql_null(aq[2])) a["by"] = sql_text(aq[2]);
      actions.push_back(std::move(a));
    }
    const Seat first = Seat(sql_int(q[8]));
    Json record{
        {"id", str(id)},
        {"room", room},
        {"game_no", game_no},
        {"game", sql_text(q[1])},
        {"options", game_options(stored_json(q[2], where, "options"), first, sql_int(q[9]) != 0)},
        {"setup", stored_json(q[3], where, "setup")},
        {"players", sql_int(q[4])},
        {"ranked", sql_int(q[5]) != 0},
        {"commit", sql_text(q[7])},
        {"first", first},
        {"status", finished ? "finished" : "playing"},
        {"actions", std::move(actions)},
        {"players_info", players_info(sql_int(q[0]), finished, room)},
        {"started_at", sql_int(q[10])},
        {"finished_at", finished ? Json(sql_int(q[11])) : Json()},
        {"result", finished ? stored_json(q[12], where, "result") : Json()},
    };
    // R1: the seed is revealed only once the game is over.
    if (finished) record["seed"] = sql_text(q[6]);
    out = std::move(record);
  });
  return out;
}

Json Store::summaries(const std::vector<SqlRow>& rows) {
  Json out = Json::array();
  for (const auto& q : rows) {
    const std::string room = sql_text(q[1]);
    const int game_no = int(sql_int(q[2]));
    const std::string where = "game " + game_id(room, game_no);
    const auto seq = sql_int(q[0]);
    const auto finished_at = sql_int(q[7]);
    out.push_back({{"id", game_id(room, game_no)},
                   {"room", room},
                   {"game_no", game_no},
                   {"game", sql_text(q[3])},
                   {"players", sql_int(q[4])},
                   {"ranked", sql_int(q[5]) != 0},
                   {"players_info", players_info(seq, true, room)},
                   {"started_at", sql_int(q[6])},
                   {"finished_at", finished_at},
                   {"result", stored_json(q[8], where, "result")},
                   {"cursor", std::to_string(finished_at) + "." + std::to_string(seq)}});
  }
  return out;
}

Json Store::list_games(const std::optional<std::string>& player,
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
  auto maybe = [](const auto& v) { return v ? SqlValue(*v) : SqlValue(nullptr); };
  Json out;
  reading("list_games", [&] {
    // The CASTs tell PostgreSQL each parameter's type where a NULL alone would not.
    Json games = summaries(query(
        "SELECT g.seq, g.room, g.game_no, r.game, r.players, r.ranked, g.started_at, "
        "g.finished_at, g.result FROM games g JOIN rooms r ON r.id = g.room "
        "WHERE g.finished_at IS NOT NULL AND (CAST($1 AS TEXT) IS NULL OR r.game = $1) "
        "AND (CAST($2 AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM game_players gp "
        "     WHERE gp.game_seq = g.seq AND gp.identity = $2)) "
        "AND (CAST($3 AS BIGINT) IS NULL OR g.finished_at < $3 "
        "     OR (g.finished_at = $3 AND g.seq < CAST($4 AS BIGINT))) "
        "ORDER BY g.finished_at DESC, g.seq DESC LIMIT $5",
        {maybe(game), maybe(player), cursor ? SqlValue(cursor->finished_at) : SqlValue(nullptr),
         cursor ? maybe(cursor->seq) : SqlValue(nullptr),
         std::int64_t(limit) + 1}));  // one more tells whether a next page exists
    Json next;
    if (games.size() > std::size_t(limit)) {
      games.erase(games.end() - 1);
      next = games.back()["cursor"];
    }
    for (auto& g : games) g.erase("cursor");
    out = {{"games", std::move(games)}, {"next", std::move(next)}};
  });
  return out;
}

}  // namespace tanbo_server::server::store
