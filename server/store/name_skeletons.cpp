// The names accounts protect (docs/protocol.md, "Names"), written once over both databases
// through Store::query. The keys come from the server (protocol/lookalike/, ICU), so the store
// needs no Unicode tables of its own: it keeps them and finds them.
#include "server/store/detail.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store {

using namespace detail;

namespace {

constexpr const char* kInsert =
    "INSERT INTO name_skeletons (identity, kind, skeleton) VALUES ($1, $2, $3) "
    "ON CONFLICT DO NOTHING";

}  // namespace

WriteResult Store::protect_names(std::string_view identity,
                                 const std::vector<std::string>& username_keys,
                                 const std::vector<std::string>& name_keys) {
  return transact("protect_names " + str(identity), [&]() -> WriteResult {
    query("DELETE FROM name_skeletons WHERE identity = $1", {str(identity)});
    for (const auto& k : username_keys) query(kInsert, {str(identity), str("username"), k});
    for (const auto& k : name_keys) query(kInsert, {str(identity), str("name"), k});
    return {};
  });
}

std::optional<std::string> Store::lookalike_holder(const std::vector<std::string>& keys,
                                                   std::string_view except) {
  std::optional<std::string> out;
  if (keys.empty()) return out;
  reading("lookalike_holder", [&] {
    // Always two parameters, so that one statement serves one key and two.
    auto rows = query(
        "SELECT identity FROM name_skeletons WHERE skeleton IN ($1, $2) AND identity <> $3 "
        "LIMIT 1",
        {keys.front(), keys.back(), str(except)});
    if (!rows.empty()) out = sql_text(rows[0][0]);
  });
  return out;
}

void Store::each_name_key(const std::function<void(std::string, std::string, std::string)>& f) {
  std::vector<SqlRow> rows;
  reading("each_name_key",
          [&] { rows = query("SELECT identity, kind, skeleton FROM name_skeletons", {}); });
  for (const auto& r : rows) f(sql_text(r[0]), sql_text(r[1]), sql_text(r[2]));
}

WriteResult Store::renormalize_username(std::string_view identity, std::string_view username,
                                        std::string_view username_key) {
  return transact_one("renormalize_username " + str(identity), [&]() -> WriteResult {
    query("UPDATE accounts SET username = $1, username_key = $2 WHERE identity = $3",
          {str(username), str(username_key), str(identity)});
    return {};
  });
}

}  // namespace tanbo_server::server::store
