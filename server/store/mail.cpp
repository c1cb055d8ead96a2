// An account's confirmed mail address and the tokens sent by mail, written once over both
// databases through Store::query.
#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

namespace {

// A used or expired token stays a day, so that the mails an account was sent are counted
// (add_mail_token), then goes.
constexpr std::int64_t kKeptMs = 24LL * 3600 * 1000;

}  // namespace

std::optional<Account> Store::account_by_mail(std::string_view mail) {
  std::optional<std::string> identity;
  reading("account_by_mail", [&] {
    auto rows = query("SELECT identity FROM accounts WHERE mail = $1", {str(mail)});
    if (!rows.empty()) identity = sql_text(rows[0][0]);
  });
  if (!identity) return std::nullopt;
  return account_of(*identity);
}

WriteResult Store::set_mail(std::string_view identity, std::string_view mail) {
  return transact("set_mail " + str(identity), [&]() -> WriteResult {
    if (query("SELECT identity FROM accounts WHERE identity = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no account " + str(identity));
    if (!mail.empty() && !query("SELECT identity FROM accounts WHERE mail = $1 AND identity <> $2",
                                {str(mail), str(identity)})
                              .empty())
      return refuse(Code::duplicate, "another account has this mail address");
    // Two nodes confirming one address at once: the UNIQUE index refuses the second.
    query("UPDATE accounts SET mail = $1 WHERE identity = $2", {or_null(mail), str(identity)});
    return {};
  });
}

WriteResult Store::add_mail_token(const MailToken& t, int per_hour) {
  return transact("add_mail_token " + t.identity, [&]() -> WriteResult {
    // A write to the account's row first: PostgreSQL then holds its lock until the commit, so
    // that another node's count for the account waits, and sees this token.
    if (execute("UPDATE accounts SET mail = mail WHERE identity = $1", {t.identity}) != 1)
      return refuse(Code::not_found, "no account " + t.identity);
    auto rows = query(
        "SELECT count(*) FROM mail_tokens WHERE identity = $1 AND purpose = $2 AND created_at > $3",
        {t.identity, t.purpose, t.created_at - 3600 * 1000LL});
    if (!rows.empty() && sql_int(rows[0][0]) >= per_hour)
      return refuse(Code::invalid, t.identity + " was sent too many mails lately");
    query("DELETE FROM mail_tokens WHERE created_at < $1", {t.created_at - kKeptMs});
    query(
        "INSERT INTO mail_tokens (hash, identity, purpose, mail, created_at, expires_at) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        {t.hash, t.identity, t.purpose, t.mail, t.created_at, t.expires_at});
    return {};
  });
}

namespace {

constexpr const char* kMailTokenColumns =
    "SELECT hash, identity, purpose, mail, created_at, expires_at FROM mail_tokens ";

}  // namespace

std::optional<MailToken> Store::mail_token(std::string_view hash, std::string_view purpose,
                                           std::int64_t now) {
  std::optional<MailToken> out;
  reading("mail_token", [&] {
    auto rows = query(
        std::string(kMailTokenColumns) + "WHERE hash = $1 AND purpose = $2 AND expires_at > $3",
        {str(hash), str(purpose), now});
    if (rows.empty()) return;
    const auto& r = rows[0];
    out = MailToken{sql_text(r[0]), sql_text(r[1]), sql_text(r[2]),
                    sql_text(r[3]), sql_int(r[4]),  sql_int(r[5])};
  });
  return out;
}

WriteResult Store::take_mail_token(std::string_view hash, std::string_view purpose,
                                   std::int64_t now, std::optional<MailToken>& found) {
  found.reset();
  return transact("take_mail_token", [&]() -> WriteResult {
    auto rows = query(
        std::string(kMailTokenColumns) + "WHERE hash = $1 AND purpose = $2 AND expires_at > $3",
        {str(hash), str(purpose), now});
    if (rows.empty()) return {};
    // Compare and swap: of two uses at once, on any nodes, one changes the row.
    if (execute("UPDATE mail_tokens SET expires_at = 0 WHERE hash = $1 AND expires_at > $2",
                {str(hash), now}) != 1)
      return {};
    const auto& r = rows[0];
    found = MailToken{sql_text(r[0]), sql_text(r[1]), sql_text(r[2]),
                      sql_text(r[3]), sql_int(r[4]),  sql_int(r[5])};
    return {};
  });
}

std::optional<std::string> Store::pending_mail(std::string_view identity, std::int64_t now) {
  std::optional<std::string> out;
  reading("pending_mail " + str(identity), [&] {
    auto rows = query(
        "SELECT mail FROM mail_tokens WHERE identity = $1 AND purpose = 'confirm' AND "
        "expires_at > $2 ORDER BY created_at DESC",
        {str(identity), now});
    if (!rows.empty()) out = sql_text(rows[0][0]);
  });
  return out;
}

WriteResult Store::end_mail_tokens(std::string_view identity, std::string_view purpose) {
  return transact("end_mail_tokens " + str(identity), [&]() -> WriteResult {
    if (purpose.empty())
      query("UPDATE mail_tokens SET expires_at = 0 WHERE identity = $1", {str(identity)});
    else
      query("UPDATE mail_tokens SET expires_at = 0 WHERE identity = $1 AND purpose = $2",
            {str(identity), str(purpose)});
    return {};
  });
}

}  // namespace tanbo_server::server::store
