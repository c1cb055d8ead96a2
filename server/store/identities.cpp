// Identities and their tokens, written once over both databases through Store::query.
#include "server/store/detail.hpp"
#include "server/store/names.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

namespace {

constexpr const char* kTokenColumns =
    "SELECT hash, identity, created_at, last_used_at, agent, name FROM tokens ";

template <class Row>
Token token_in(const Row& r, const auto& text, const auto& integer) {
  return Token{text(r[0]), text(r[1]), integer(r[2]), integer(r[3]), text(r[4]), text(r[5])};
}

constexpr const char* kIdentityColumns =
    "SELECT i.id, i.name, a.username, i.bot, i.play_bots FROM identities i "
    "LEFT JOIN accounts a ON a.identity = i.id ";

template <class Row>
Identity identity_in(const Row& r, const auto& text, const auto& integer) {
  return Identity{text(r[0]), text(r[1]), text(r[2]), integer(r[3]) != 0, integer(r[4]) != 0};
}

}  // namespace

WriteResult Store::create_identity(std::string_view id, std::string_view name,
                                   std::string_view token_hash, std::int64_t at,
                                   std::string_view agent) {
  if (auto bad = validate_name(name)) return refuse(Code::invalid, *bad);
  if (id.empty() || token_hash.empty())
    return refuse(Code::invalid, "an identity needs an id and a token hash");
  return transact("create_identity " + str(id), [&]() -> WriteResult {
    // token_hash is retired (schema 6): it holds the id, which no token hashes to.
    query("INSERT INTO identities (id, name, token_hash) VALUES ($1, $2, $3)",
          {str(id), str(name), str(id)});
    query(
        "INSERT INTO tokens (hash, identity, created_at, last_used_at, agent) "
        "VALUES ($1, $2, $3, $3, $4)",
        {str(token_hash), str(id), at, str(agent)});
    return {};
  });
}

std::optional<Identity> Store::identity_by_token_hash(std::string_view token_hash) {
  std::optional<Identity> out;
  reading("identity_by_token_hash", [&] {
    auto rows = query(
        std::string(kIdentityColumns) + "JOIN tokens t ON t.identity = i.id WHERE t.hash = $1",
        {str(token_hash)});
    if (!rows.empty()) out = identity_in(rows[0], sql_text, sql_int);
  });
  return out;
}

std::optional<Identity> Store::identity_by_id(std::string_view id) {
  std::optional<Identity> out;
  reading("identity_by_id " + str(id), [&] {
    auto rows = query(std::string(kIdentityColumns) + "WHERE i.id = $1", {str(id)});
    if (!rows.empty()) out = identity_in(rows[0], sql_text, sql_int);
  });
  return out;
}

void Store::each_identity(const std::function<void(Identity)>& f) {
  std::vector<SqlRow> rows;
  reading("each_identity", [&] { rows = query(kIdentityColumns, {}); });
  for (const auto& r : rows) f(identity_in(r, sql_text, sql_int));
}

void Store::each_token(const std::function<void(Token)>& f) {
  std::vector<SqlRow> rows;
  reading("each_token", [&] { rows = query(kTokenColumns, {}); });
  for (const auto& r : rows) f(token_in(r, sql_text, sql_int));
}

std::optional<Token> Store::token(std::string_view token_hash) {
  std::optional<Token> out;
  reading("token", [&] {
    auto rows = query(std::string(kTokenColumns) + "WHERE hash = $1", {str(token_hash)});
    if (!rows.empty()) out = token_in(rows[0], sql_text, sql_int);
  });
  return out;
}

std::vector<Token> Store::tokens_of(std::string_view identity) {
  std::vector<Token> out;
  reading("tokens_of " + str(identity), [&] {
    for (const auto& r :
         query(std::string(kTokenColumns) + "WHERE identity = $1 AND name IS NULL "
                                            "ORDER BY last_used_at DESC, created_at DESC, hash",
               {str(identity)}))
      out.push_back(token_in(r, sql_text, sql_int));
  });
  return out;
}

WriteResult Store::add_token(std::string_view identity, std::string_view token_hash,
                             std::int64_t at, std::string_view agent) {
  return transact("add_token " + str(identity), [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1", {str(identity)}).empty())
      return refuse(Code::not_found, "no identity " + str(identity));
    query(
        "INSERT INTO tokens (hash, identity, created_at, last_used_at, agent) "
        "VALUES ($1, $2, $3, $3, $4)",
        {str(token_hash), str(identity), at, str(agent)});
    return {};
  });
}

WriteResult Store::touch_token(std::string_view token_hash, std::int64_t at) {
  return transact_one("touch_token", [&]() -> WriteResult {
    query("UPDATE tokens SET last_used_at = $1 WHERE hash = $2 AND last_used_at < $1",
          {at, str(token_hash)});
    return {};
  });
}

WriteResult Store::remove_token(std::string_view token_hash) {
  return transact("remove_token", [&]() -> WriteResult {
    if (query("SELECT identity FROM tokens WHERE hash = $1", {str(token_hash)}).empty())
      return refuse(Code::not_found, "no such token");
    query("DELETE FROM tokens WHERE hash = $1", {str(token_hash)});
    return {};
  });
}

WriteResult Store::remove_tokens(std::string_view identity, std::string_view keep) {
  return transact("remove_tokens " + str(identity), [&]() -> WriteResult {
    query("DELETE FROM tokens WHERE identity = $1 AND hash <> $2 AND name IS NULL",
          {str(identity), str(keep)});
    return {};
  });
}

}  // namespace tanbo_server::server::store
