// Identities and their tokens, written once over both databases through Store::query.
#include "server/store/names.hpp"
#include "server/store/store.hpp"

namespace tanbo::server::store {
namespace {

std::string s(std::string_view v) { return std::string(v); }

using Code = WriteResult::Code;
WriteResult refused(Code code, std::string message) { return {code, std::move(message)}; }

constexpr const char* kIdentityColumns =
    "SELECT i.id, i.name, a.username FROM identities i "
    "LEFT JOIN accounts a ON a.identity = i.id ";

}  // namespace

WriteResult Store::create_identity(std::string_view id, std::string_view name,
                                   std::string_view token_hash) {
  if (auto bad = validate_name(name)) return refused(Code::invalid, *bad);
  if (id.empty() || token_hash.empty())
    return refused(Code::invalid, "an identity needs an id and a token hash");
  return transact("create_identity " + s(id), [&]() -> WriteResult {
    // token_hash is retired (schema 6): it holds the id, which no token hashes to.
    query("INSERT INTO identities (id, name, token_hash) VALUES ($1, $2, $3)",
          {s(id), s(name), s(id)});
    query("INSERT INTO tokens (hash, identity, created_at) VALUES ($1, $2, $3)",
          {s(token_hash), s(id), std::int64_t(0)});
    return {};
  });
}

std::optional<Identity> Store::identity_by_token_hash(std::string_view token_hash) {
  std::optional<Identity> out;
  reading("identity_by_token_hash", [&] {
    auto rows = query(
        std::string(kIdentityColumns) + "JOIN tokens t ON t.identity = i.id WHERE t.hash = $1",
        {s(token_hash)});
    if (!rows.empty())
      out = Identity{sql_text(rows[0][0]), sql_text(rows[0][1]), sql_text(rows[0][2])};
  });
  return out;
}

std::optional<Identity> Store::identity_by_id(std::string_view id) {
  std::optional<Identity> out;
  reading("identity_by_id " + s(id), [&] {
    auto rows = query(std::string(kIdentityColumns) + "WHERE i.id = $1", {s(id)});
    if (!rows.empty())
      out = Identity{sql_text(rows[0][0]), sql_text(rows[0][1]), sql_text(rows[0][2])};
  });
  return out;
}

void Store::each_identity(const std::function<void(Identity)>& f) {
  std::vector<SqlRow> rows;
  reading("each_identity", [&] { rows = query(kIdentityColumns, {}); });
  for (const auto& r : rows) f(Identity{sql_text(r[0]), sql_text(r[1]), sql_text(r[2])});
}

void Store::each_token(const std::function<void(std::string, std::string)>& f) {
  std::vector<SqlRow> rows;
  reading("each_token", [&] { rows = query("SELECT hash, identity FROM tokens", {}); });
  for (const auto& r : rows) f(sql_text(r[0]), sql_text(r[1]));
}

WriteResult Store::add_token(std::string_view identity, std::string_view token_hash,
                             std::int64_t at) {
  return transact("add_token " + s(identity), [&]() -> WriteResult {
    if (query("SELECT id FROM identities WHERE id = $1", {s(identity)}).empty())
      return refused(Code::not_found, "no identity " + s(identity));
    query("INSERT INTO tokens (hash, identity, created_at) VALUES ($1, $2, $3)",
          {s(token_hash), s(identity), at});
    return {};
  });
}

WriteResult Store::remove_token(std::string_view token_hash) {
  return transact("remove_token", [&]() -> WriteResult {
    if (query("SELECT identity FROM tokens WHERE hash = $1", {s(token_hash)}).empty())
      return refused(Code::not_found, "no such token");
    query("DELETE FROM tokens WHERE hash = $1", {s(token_hash)});
    return {};
  });
}

WriteResult Store::remove_tokens(std::string_view identity, std::string_view keep) {
  return transact("remove_tokens " + s(identity), [&]() -> WriteResult {
    query("DELETE FROM tokens WHERE identity = $1 AND hash <> $2", {s(identity), s(keep)});
    return {};
  });
}

}  // namespace tanbo::server::store
