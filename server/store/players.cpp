// Players' names, ratings, pages and the leaderboard, written once over both databases.
#include <algorithm>

#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

namespace {

// The name the server gave a new guest ("Guest " and the id's four characters after the first),
// which a page says in its reader's words (docs/protocol.md, "Names").
void mark_default_name(Json& player, const std::string& id, const std::string& name) {
  if (id.size() >= 5 && name.size() == 10 && name.starts_with("Guest ") &&
      name.compare(6, 4, id, 1, 4) == 0)
    player["default_name"] = true;
}

}  // namespace

WriteResult Store::set_name(std::string_view id, std::string_view name,
                            const std::vector<std::string>& name_keys) {
  if (auto bad = validate_name(name)) return refuse(Code::invalid, *bad);
  return transact("set_name " + str(id), [&]() -> WriteResult {
    if (query("UPDATE identities SET name = $1 WHERE id = $2 RETURNING id", {str(name), str(id)})
            .empty())
      return refuse(Code::not_found, "no identity " + str(id));
    // An account holder's display name is protected under its new keys (name_skeletons.cpp).
    if (!name_keys.empty() &&
        !query("SELECT identity FROM accounts WHERE identity = $1", {str(id)}).empty()) {
      query("DELETE FROM name_skeletons WHERE identity = $1 AND kind = 'name'", {str(id)});
      for (const auto& k : name_keys)
        query(
            "INSERT INTO name_skeletons (identity, kind, skeleton) VALUES ($1, 'name', $2) "
            "ON CONFLICT DO NOTHING",
            {str(id), k});
    }
    return {};
  });
}

double Store::rating(std::string_view identity, std::string_view game) {
  double out = kInitialRating;
  reading("rating", [&] {
    auto rows = query("SELECT rating FROM ratings WHERE identity = $1 AND game = $2",
                      {str(identity), str(game)});
    if (!rows.empty()) out = sql_real(rows[0][0]);
  });
  return out;
}

std::optional<Json> Store::player(std::string_view id, int recent) {
  std::optional<Json> out;
  reading("player " + str(id), [&] {
    auto rows = query(
        "SELECT i.name, a.identity, i.bot FROM identities i "
        "LEFT JOIN accounts a ON a.identity = i.id "
        "WHERE i.id = $1",
        {str(id)});
    if (rows.empty()) return;
    Json p{{"id", str(id)}, {"name", sql_text(rows[0][0])}, {"ratings", Json::object()}};
    if (!sql_null(rows[0][1])) p["account"] = true;  // the page marks an account holder
    if (sql_int(rows[0][2]) != 0) p["bot"] = true;   // and a bot
    mark_default_name(p, str(id), sql_text(rows[0][0]));
    for (const auto& q :
         query("SELECT game, rating, games FROM ratings WHERE identity = $1 ORDER BY game" +
                   bytewise(),
               {str(id)}))
      p["ratings"][sql_text(q[0])] = {{"rating", rounded(sql_real(q[1]))},
                                      {"games", sql_int(q[2])}};
    out = std::move(p);
  });
  if (out) (*out)["recent"] = list_games(str(id), std::nullopt, recent, std::nullopt)["games"];
  return out;
}

Json Store::leaderboard(std::string_view game, int limit) {
  Json out = Json::array();
  reading("leaderboard", [&] {
    for (const auto& q : query("SELECT r.identity, i.name, r.rating, r.games, a.identity, i.bot "
                               "FROM ratings r LEFT JOIN identities i ON i.id = r.identity "
                               "LEFT JOIN accounts a ON a.identity = r.identity WHERE r.game = $1 "
                               "ORDER BY r.rating DESC, r.identity" +
                                   bytewise() + " LIMIT $2",
                               {str(game), std::int64_t(std::clamp(limit, 1, 1000))})) {
      Json row{{"rank", out.size() + 1},
               {"id", sql_text(q[0])},
               {"name", sql_text_or_null(q[1])},
               {"rating", rounded(sql_real(q[2]))},
               {"games", sql_int(q[3])}};
      if (!sql_null(q[4])) row["account"] = true;
      if (!sql_null(q[5]) && sql_int(q[5]) != 0) row["bot"] = true;
      if (!sql_null(q[1])) mark_default_name(row, sql_text(q[0]), sql_text(q[1]));
      out.push_back(std::move(row));
    }
  });
  return out;
}

}  // namespace tanbo_server::server::store
