// Players' names, ratings, pages and the leaderboard, written once over both databases.
#include <algorithm>

#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo::server::store {

using namespace detail;

WriteResult Store::set_name(std::string_view id, std::string_view name) {
  if (auto bad = validate_name(name)) return refuse(Code::invalid, *bad);
  return transact("set_name " + str(id), [&]() -> WriteResult {
    if (query("UPDATE identities SET name = $1 WHERE id = $2 RETURNING id", {str(name), str(id)})
            .empty())
      return refuse(Code::not_found, "no identity " + str(id));
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
    auto rows = query("SELECT name FROM identities WHERE id = $1", {str(id)});
    if (rows.empty()) return;
    Json p{{"id", str(id)}, {"name", sql_text(rows[0][0])}, {"ratings", Json::object()}};
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
    for (const auto& q : query("SELECT r.identity, i.name, r.rating, r.games FROM ratings r "
                               "LEFT JOIN identities i ON i.id = r.identity WHERE r.game = $1 "
                               "ORDER BY r.rating DESC, r.identity" +
                                   bytewise() + " LIMIT $2",
                               {str(game), std::int64_t(std::clamp(limit, 1, 1000))}))
      out.push_back({{"rank", out.size() + 1},
                     {"id", sql_text(q[0])},
                     {"name", sql_text_or_null(q[1])},
                     {"rating", rounded(sql_real(q[2]))},
                     {"games", sql_int(q[3])}});
  });
  return out;
}

}  // namespace tanbo::server::store
