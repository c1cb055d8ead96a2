// Accounts, failed logins, deletion and export, written once over both databases through
// Store::query.
#include <cmath>

#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

namespace {

constexpr const char* kAccountColumns =
    "SELECT identity, username, password, created_at, failures, locked_until, recovery, mail "
    "FROM accounts ";

}  // namespace

WriteResult Store::create_account(const Account& a, std::string_view username_key) {
  return transact("create_account " + a.identity, [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1 AND deleted_at IS NULL", {a.identity})
            .empty())
      return refuse(Code::not_found, "no identity " + a.identity);
    if (!query("SELECT identity FROM accounts WHERE identity = $1", {a.identity}).empty())
      return refuse(Code::duplicate, "identity " + a.identity + " has an account already");
    if (!query("SELECT identity FROM accounts WHERE username_key = $1", {str(username_key)})
             .empty())
      return refuse(Code::duplicate, "username taken");
    // A claim racing another node's for the same username is refused by the UNIQUE key.
    query(
        "INSERT INTO accounts (identity, username, username_key, password, created_at, recovery) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        {a.identity, a.username, str(username_key), a.password_hash, a.created_at,
         a.recovery_hash});
    return {};
  });
}

namespace {

template <class Rows>
std::optional<Account> account_in(const Rows& rows, const auto& text, const auto& integer) {
  if (rows.empty()) return std::nullopt;
  const auto& r = rows[0];
  return Account{text(r[0]),         text(r[1]),    text(r[2]), integer(r[3]),
                 int(integer(r[4])), integer(r[5]), text(r[6]), text(r[7])};
}

}  // namespace

std::optional<Account> Store::account_by_key(std::string_view username_key) {
  std::optional<Account> out;
  reading("account_by_key", [&] {
    out = account_in(
        query(std::string(kAccountColumns) + "WHERE username_key = $1", {str(username_key)}),
        sql_text, sql_int);
  });
  return out;
}

std::optional<Account> Store::account_of(std::string_view identity) {
  std::optional<Account> out;
  reading("account_of " + str(identity), [&] {
    out = account_in(query(std::string(kAccountColumns) + "WHERE identity = $1", {str(identity)}),
                     sql_text, sql_int);
  });
  return out;
}

WriteResult Store::count_login_attempt(std::string_view identity, std::int64_t at,
                                       const std::function<std::int64_t(int)>& wait_after,
                                       LoginTurn& turn) {
  return transact("count_login_attempt " + str(identity), [&]() -> WriteResult {
    // Compare and swap: another node's attempt may count between the read and the write, and
    // then the write changes nothing and the count is read again.
    for (int tries = 0; tries < 16; ++tries) {
      auto rows =
          query("SELECT failures, locked_until FROM accounts WHERE identity = $1", {str(identity)});
      if (rows.empty()) return refuse(Code::not_found, "no account " + str(identity));
      const std::int64_t attempts = sql_int(rows[0][0]), next_at = sql_int(rows[0][1]);
      if (at < next_at) {
        turn = {false, int(attempts), next_at};
        return {};
      }
      const LoginTurn counted{true, int(attempts) + 1, at + wait_after(int(attempts) + 1)};
      if (execute("UPDATE accounts SET failures = $1, locked_until = $2 "
                  "WHERE identity = $3 AND failures = $4 AND locked_until = $5",
                  {std::int64_t(counted.attempts), counted.next_attempt_at, str(identity), attempts,
                   next_at}) == 1) {
        turn = counted;
        return {};
      }
    }
    return refuse(Code::failed, "the login count of " + str(identity) + " kept changing");
  });
}

WriteResult Store::note_login_success(std::string_view identity) {
  return transact("note_login_success " + str(identity), [&]() -> WriteResult {
    query(
        "UPDATE accounts SET failures = 0, locked_until = 0 WHERE identity = $1 AND "
        "(failures <> 0 OR locked_until <> 0)",
        {str(identity)});
    return {};
  });
}

WriteResult Store::set_password(std::string_view identity, std::string_view password_hash) {
  return transact("set_password " + str(identity), [&]() -> WriteResult {
    if (query("SELECT identity FROM accounts WHERE identity = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no account " + str(identity));
    query("UPDATE accounts SET password = $1, failures = 0, locked_until = 0 WHERE identity = $2",
          {str(password_hash), str(identity)});
    return {};
  });
}

WriteResult Store::set_recovery(std::string_view identity, std::string_view recovery_hash) {
  return transact("set_recovery " + str(identity), [&]() -> WriteResult {
    if (query("SELECT identity FROM accounts WHERE identity = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no account " + str(identity));
    query("UPDATE accounts SET recovery = $1 WHERE identity = $2",
          {str(recovery_hash), str(identity)});
    return {};
  });
}

WriteResult Store::delete_identity(std::string_view identity, std::int64_t at) {
  return transact("delete_identity " + str(identity), [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1 AND deleted_at IS NULL", {str(identity)})
            .empty())
      return refuse(Code::not_found, "no identity " + str(identity));
    const std::string gone(kDeletedPlayer);
    query("UPDATE identities SET name = $1, deleted_at = $2, shadow_until = NULL WHERE id = $3",
          {gone, at, str(identity)});
    for (const char* sql :
         {"DELETE FROM accounts WHERE identity = $1", "DELETE FROM tokens WHERE identity = $1",
          "DELETE FROM mail_tokens WHERE identity = $1",
          "DELETE FROM name_skeletons WHERE identity = $1",
          "DELETE FROM mutes WHERE identity = $1 OR muted = $1",
          "DELETE FROM ratings WHERE identity = $1", "DELETE FROM reports WHERE reporter = $1"})
      query(sql, {str(identity)});
    query(
        "UPDATE chat SET name = $1, text = NULL, phrase = NULL, "
        "removed_at = COALESCE(removed_at, $2) WHERE identity = $3",
        {gone, at, str(identity)});
    return {};
  });
}

Json Store::export_identity(std::string_view identity) {
  Json out;
  auto rating = [](const SqlValue& v) {  // PostgreSQL's rows come as text
    if (auto d = std::get_if<double>(&v)) return std::lround(*d);
    if (auto t = std::get_if<std::string>(&v)) return std::lround(std::stod(*t));
    return long(sql_int(v));
  };
  reading("export_identity " + str(identity), [&] {
    auto who = query("SELECT id, name FROM identities WHERE id = $1", {str(identity)});
    if (who.empty()) return;
    out["identity"] = {{"id", sql_text(who[0][0])}, {"name", sql_text(who[0][1])}};
    auto account = account_of(identity);
    out["account"] =
        account ? Json{{"username", account->username}, {"created_at", account->created_at}}
                : Json();
    if (account && !account->mail.empty()) out["account"]["mail"] = account->mail;
    Json ratings = Json::object();
    for (const auto& r :
         query("SELECT game, rating, games FROM ratings WHERE identity = $1 ORDER BY game",
               {str(identity)}))
      ratings[sql_text(r[0])] = {{"rating", rating(r[1])}, {"games", sql_int(r[2])}};
    out["ratings"] = std::move(ratings);
    Json games = Json::array();
    for (const auto& r :
         query("SELECT g.room, g.game_no, r.game, gp.seat, g.started_at, g.finished_at, g.result, "
               "gp.rating_before, gp.rating_after FROM game_players gp "
               "JOIN games g ON g.seq = gp.game_seq JOIN rooms r ON r.id = g.room "
               "WHERE gp.identity = $1 ORDER BY g.seq",
               {str(identity)})) {
      Json g{{"id", game_id(sql_text(r[0]), int(sql_int(r[1])))},
             {"game", sql_text(r[2])},
             {"seat", sql_int(r[3])},
             {"started_at", sql_int(r[4])},
             {"finished_at", sql_null(r[5]) ? Json() : Json(sql_int(r[5]))},
             {"result", sql_null(r[6]) ? Json() : Json::parse(sql_text(r[6]))}};
      if (!sql_null(r[7])) g["rating_before"] = rating(r[7]);
      if (!sql_null(r[8])) g["rating_after"] = rating(r[8]);
      games.push_back(std::move(g));
    }
    out["games"] = std::move(games);
    Json seats = Json::array();
    for (const auto& r :
         query("SELECT room, seat FROM seats WHERE identity = $1 ORDER BY room, seat",
               {str(identity)}))
      seats.push_back({{"room", sql_text(r[0])}, {"seat", sql_int(r[1])}});
    out["seats"] = std::move(seats);
    Json chat = Json::array();
    for (const auto& r :
         query("SELECT room, game_no, channel, n, text, phrase, at FROM chat WHERE identity = $1 "
               "AND removed_at IS NULL ORDER BY at, room, channel, n",
               {str(identity)})) {
      Json line{{"room", sql_text(r[0])},
                {"game_no", sql_int(r[1])},
                {"channel", sql_text(r[2])},
                {"n", sql_int(r[3])},
                {"at", sql_int(r[6])}};
      if (!sql_null(r[4])) line["text"] = sql_text(r[4]);
      if (!sql_null(r[5])) line["phrase"] = sql_text(r[5]);
      chat.push_back(std::move(line));
    }
    out["chat"] = std::move(chat);
    Json mutes = Json::array();
    for (const auto& r :
         query("SELECT muted FROM mutes WHERE identity = $1 ORDER BY muted", {str(identity)}))
      mutes.push_back(sql_text(r[0]));
    out["mutes"] = std::move(mutes);
    Json reports = Json::array();
    for (const auto& r :
         query("SELECT player, room, reason, at FROM reports WHERE reporter = $1 ORDER BY seq",
               {str(identity)}))
      reports.push_back({{"player", sql_text(r[0])},
                         {"room", sql_null(r[1]) ? Json() : Json(sql_text(r[1]))},
                         {"reason", sql_text(r[2])},
                         {"at", sql_int(r[3])}});
    out["reports"] = std::move(reports);
  });
  return out;
}

}  // namespace tanbo_server::server::store
