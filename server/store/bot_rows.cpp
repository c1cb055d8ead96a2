#include "server/store/bot_rows.hpp"

#include "server/store/detail.hpp"

namespace tanbo_server::server::store {

using namespace detail;

WriteResult BotRows::make_bot(Store& s, std::string_view identity) {
  return s.transact("make_bot " + str(identity), [&]() -> WriteResult {
    if (s.query("SELECT identity FROM accounts WHERE identity = $1" + s.row_lock(), {str(identity)})
            .empty())
      return refuse(Code::not_found, "no account " + str(identity));
    // A rated game leaves its ratings in game_players, finished or not (rating_before).
    if (!s.query("SELECT game_seq FROM game_players WHERE identity = $1 AND "
                 "(rating_before IS NOT NULL OR rating_after IS NOT NULL) LIMIT 1",
                 {str(identity)})
             .empty() ||
        !s.query("SELECT game FROM ratings WHERE identity = $1 AND games > 0 LIMIT 1",
                 {str(identity)})
             .empty())
      return refuse(Code::invalid, str(identity) + " has played a rated game");
    s.query("UPDATE identities SET bot = 1 WHERE id = $1", {str(identity)});
    return {};
  });
}

WriteResult BotRows::set_play_bots(Store& s, std::string_view identity, bool on) {
  return s.transact_one("set_play_bots " + str(identity), [&]() -> WriteResult {
    if (s.execute("UPDATE identities SET play_bots = $1 WHERE id = $2",
                  {std::int64_t(on ? 1 : 0), str(identity)}) == 0)
      return refuse(Code::not_found, "no identity " + str(identity));
    return {};
  });
}

WriteResult BotRows::add_access_token(Store& s, std::string_view identity,
                                      std::string_view token_hash, std::string_view name,
                                      std::int64_t at) {
  return s.transact("add_access_token " + str(identity), [&]() -> WriteResult {
    if (s.query("SELECT id FROM identities WHERE id = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no identity " + str(identity));
    s.query(
        "INSERT INTO tokens (hash, identity, created_at, last_used_at, agent, name) "
        "VALUES ($1, $2, $3, 0, '', $4)",
        {str(token_hash), str(identity), at, str(name)});
    return {};
  });
}

std::vector<Token> BotRows::access_tokens(Store& s, std::string_view identity) {
  std::vector<Token> out;
  s.reading("access_tokens " + str(identity), [&] {
    for (const auto& r :
         s.query("SELECT hash, identity, created_at, last_used_at, agent, name FROM tokens "
                 "WHERE identity = $1 AND name IS NOT NULL ORDER BY created_at DESC, hash",
                 {str(identity)}))
      out.push_back(Token{Store::sql_text(r[0]), Store::sql_text(r[1]), Store::sql_int(r[2]),
                          Store::sql_int(r[3]), Store::sql_text(r[4]), Store::sql_text(r[5])});
  });
  return out;
}

}  // namespace tanbo_server::server::store
