#pragma once
// The database schema, in both dialects side by side. Migration N takes a database from version
// N - 1 to N; migrations are never edited once released, only appended, to both dialects at once.
// SQLite keeps the version in PRAGMA user_version, PostgreSQL in the table tanbo_schema.
#include <cstdint>
#include <string>

namespace SQLite {
class Database;
}

namespace tanbo_server::server::store {

// The version this code reads and writes.
inline constexpr int kSchemaVersion = 14;

enum class Dialect : std::uint8_t { sqlite, postgres };

// Migration `version` (1..kSchemaVersion) in `dialect`; null for any other version.
const char* migration(Dialect dialect, int version);
// The refusal of a database newer than this server.
std::string newer_schema(int found, int known);

int schema_version(SQLite::Database& db);

// Brings the database to version `target` (<= kSchemaVersion) in one transaction: either every
// pending migration is applied or none. False with `error` set when the database is newer than
// `target` or a migration failed.
bool migrate(SQLite::Database& db, int target, std::string& error);

}  // namespace tanbo_server::server::store
