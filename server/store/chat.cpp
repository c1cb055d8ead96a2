// Chat and moderation, written once over both databases through Store::query (one dialect for
// both: standard SQL, $N parameters, no dialect's extensions).
#include <algorithm>

#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

WriteResult Store::append_chat(std::string_view room, int game_no, const ChatLine& l) {
  return transact("append_chat " + str(room), [&]() -> WriteResult {
    query(
        "INSERT INTO chat (room, game_no, channel, n, identity, name, text, phrase, at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        {str(room), std::int64_t(game_no), l.channel, l.n, l.identity, l.name,
         l.text.empty() ? SqlValue(nullptr) : SqlValue(l.text),
         l.phrase.empty() ? SqlValue(nullptr) : SqlValue(l.phrase), l.at});
    return {};
  });
}

WriteResult Store::remove_chat(std::string_view room, std::string_view channel, std::int64_t n,
                               std::int64_t at) {
  return transact("remove_chat " + str(room), [&]() -> WriteResult {
    auto found = query("SELECT n FROM chat WHERE room = $1 AND channel = $2 AND n = $3",
                       {str(room), str(channel), n});
    if (found.empty())
      return refuse(Code::not_found, "no line " + std::to_string(n) + " in " + str(channel));
    query("UPDATE chat SET removed_at = $1 WHERE room = $2 AND channel = $3 AND n = $4",
          {at, str(room), str(channel), n});
    return {};
  });
}

namespace {

template <class Rows>
std::vector<ChatLine> lines_of(const Rows& rows, const auto& text, const auto& integer) {
  std::vector<ChatLine> out;
  for (const auto& r : rows)
    out.push_back(
        {text(r[0]), integer(r[1]), text(r[2]), text(r[3]), text(r[4]), text(r[5]), integer(r[6])});
  return out;
}

}  // namespace

std::pair<std::vector<ChatLine>, std::int64_t> Store::chat_tail(std::string_view room,
                                                                std::string_view channel,
                                                                int limit) {
  std::pair<std::vector<ChatLine>, std::int64_t> out{{}, 1};
  reading("chat_tail " + str(room), [&] {
    auto rows = query(
        "SELECT channel, n, identity, name, text, phrase, at FROM chat "
        "WHERE room = $1 AND channel = $2 AND removed_at IS NULL ORDER BY n DESC LIMIT $3",
        {str(room), str(channel), std::int64_t(limit)});
    out.first = lines_of(rows, sql_text, sql_int);
    std::reverse(out.first.begin(), out.first.end());
    auto next = query("SELECT max(n) FROM chat WHERE room = $1 AND channel = $2",
                      {str(room), str(channel)});
    if (!next.empty() && !sql_null(next[0][0])) out.second = sql_int(next[0][0]) + 1;
  });
  return out;
}

std::vector<ChatLine> Store::game_chat(std::string_view room, int game_no,
                                       std::string_view channel) {
  std::vector<ChatLine> out;
  reading("game_chat " + str(room), [&] {
    out = lines_of(query("SELECT channel, n, identity, name, text, phrase, at FROM chat "
                         "WHERE room = $1 AND game_no = $2 AND channel = $3 "
                         "AND removed_at IS NULL ORDER BY n",
                         {str(room), std::int64_t(game_no), str(channel)}),
                   sql_text, sql_int);
  });
  return out;
}

WriteResult Store::set_mute(std::string_view identity, std::string_view muted, bool on) {
  return transact("set_mute " + str(identity), [&]() -> WriteResult {
    query("DELETE FROM mutes WHERE identity = $1 AND muted = $2", {str(identity), str(muted)});
    if (on)
      query("INSERT INTO mutes (identity, muted) VALUES ($1, $2)", {str(identity), str(muted)});
    return {};
  });
}

WriteResult Store::add_report(std::string_view reporter, std::string_view player,
                              std::string_view room, std::string_view reason, std::int64_t at) {
  return transact("add_report " + str(reporter), [&]() -> WriteResult {
    query("INSERT INTO reports (reporter, player, room, reason, at) VALUES ($1, $2, $3, $4, $5)",
          {str(reporter), str(player), room.empty() ? SqlValue(nullptr) : SqlValue(str(room)),
           str(reason), at});
    return {};
  });
}

Json Store::reports(int limit) {
  Json out = Json::array();
  reading("reports", [&] {
    for (const auto& r : query("SELECT seq, reporter, player, room, reason, at FROM reports "
                               "ORDER BY seq DESC LIMIT $1",
                               {std::int64_t(limit)}))
      out.push_back({{"seq", sql_int(r[0])},
                     {"reporter", sql_text(r[1])},
                     {"player", sql_text(r[2])},
                     {"room", sql_null(r[3]) ? Json() : Json(sql_text(r[3]))},
                     {"reason", sql_text(r[4])},
                     {"at", sql_int(r[5])}});
  });
  return out;
}

WriteResult Store::set_shadow_mute(std::string_view identity, std::int64_t until) {
  return transact("set_shadow_mute " + str(identity), [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no identity " + str(identity));
    query("UPDATE identities SET shadow_until = $1 WHERE id = $2",
          {until ? SqlValue(until) : SqlValue(nullptr), str(identity)});
    return {};
  });
}

WriteResult Store::set_ban(std::string_view identity, std::int64_t at) {
  return transact("set_ban " + str(identity), [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no identity " + str(identity));
    query("UPDATE identities SET banned_at = $1 WHERE id = $2",
          {at ? SqlValue(at) : SqlValue(nullptr), str(identity)});
    return {};
  });
}

Standing Store::standing(std::string_view identity) {
  Standing out;
  reading("standing " + str(identity), [&] {
    auto rows =
        query("SELECT banned_at, shadow_until FROM identities WHERE id = $1", {str(identity)});
    if (!rows.empty()) {
      out.banned = !sql_null(rows[0][0]);
      out.shadow_until = sql_null(rows[0][1]) ? 0 : sql_int(rows[0][1]);
    }
    for (const auto& r :
         query("SELECT muted FROM mutes WHERE identity = $1 ORDER BY muted", {str(identity)}))
      out.mutes.push_back(sql_text(r[0]));
  });
  return out;
}

std::map<std::string, Standing> Store::standings() {
  std::map<std::string, Standing> out;
  reading("standings", [&] {
    for (const auto& r : query("SELECT id, banned_at, shadow_until FROM identities "
                               "WHERE banned_at IS NOT NULL OR shadow_until IS NOT NULL",
                               {})) {
      auto& st = out[sql_text(r[0])];
      st.banned = !sql_null(r[1]);
      st.shadow_until = sql_null(r[2]) ? 0 : sql_int(r[2]);
    }
    for (const auto& r : query("SELECT identity, muted FROM mutes ORDER BY identity, muted", {}))
      out[sql_text(r[0])].mutes.push_back(sql_text(r[1]));
  });
  return out;
}

}  // namespace tanbo_server::server::store
