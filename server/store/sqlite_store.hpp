#pragma once
// The embedded store: one SQLite file through SQLiteCpp, in WAL mode. The default.
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/store.hpp"

struct sqlite3;
namespace SQLite {
class Database;
class Statement;
}  // namespace SQLite

namespace tanbo_server::server::store {

class SqliteStore final : public Store {
 public:
  // Opens (creating it and its parent directory when missing) the database at `path`, in WAL
  // mode, and migrates it to kSchemaVersion. Null with `error` set when it cannot, including a
  // database from a newer server (the message names both schema versions).
  static std::unique_ptr<SqliteStore> open(const std::filesystem::path& path, Durability durability,
                                           std::string& error);
  ~SqliteStore() override;

  const std::filesystem::path& path() const { return path_; }
  std::string describe() const override { return path_.string(); }
  // The connection, for tests that count or veto commits (sqlite3_commit_hook).
  sqlite3* handle() const;

  bool begin_group() override;
  bool end_group(std::string& error) override;

 protected:
  std::vector<SqlRow> query(std::string_view sql, const std::vector<SqlValue>& params) override;
  WriteResult transact(std::string_view what, const std::function<WriteResult()>& body) override;
  WriteResult transact_one(std::string_view what,
                           const std::function<WriteResult()>& body) override;
  void reading(std::string_view what, const std::function<void()>& body) override;
  std::string bytewise() const override { return {}; }  // SQLite sorts text by its bytes

 private:
  struct Statements;
  SqliteStore(std::unique_ptr<SQLite::Database> db, std::filesystem::path path);
  // The statement for `sql`, prepared on its first use and kept; reset for this one.
  SQLite::Statement& statement(std::string_view sql);
  // transact and transact_one: inside a group, a savepoint around body() unless it is `one`
  // statement, which SQLite undoes alone when it fails.
  WriteResult write(std::string_view what, const std::function<WriteResult()>& body, bool one);

  std::unique_ptr<SQLite::Database> db_;
  std::unique_ptr<Statements> statements_;  // after db_: finalized before the database closes
  std::filesystem::path path_;
};

}  // namespace tanbo_server::server::store
