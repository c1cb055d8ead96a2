#pragma once
// The database schema, versioned through PRAGMA user_version. Migration N takes a database from
// version N - 1 to N; migrations are never edited once released, only appended.
#include <string>

namespace SQLite {
class Database;
}

namespace tanbo::server::store {

// The version this code reads and writes.
inline constexpr int kSchemaVersion = 3;

int schema_version(SQLite::Database& db);

// Brings the database to version `target` (<= kSchemaVersion) in one transaction: either every
// pending migration is applied or none. False with `error` set when the database is newer than
// `target` or a migration failed.
bool migrate(SQLite::Database& db, int target, std::string& error);

}  // namespace tanbo::server::store
