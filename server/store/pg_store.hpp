#pragma once
// The shared store: PostgreSQL through libpqxx (--store postgresql://...), for several server
// nodes on one database. The same schema and migrations as SQLite (schema.cpp), the same answers.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/store.hpp"

namespace tanbo_server::server::store {

class PgStore final : public Store {
 public:
  // Connects to `url` (a libpq URI: postgresql://user:password@host:port/db?options) and
  // migrates the database to kSchemaVersion, one node at a time. Null with `error` set when it
  // cannot, including a database from a newer server.
  static std::unique_ptr<PgStore> open(const std::string& url, std::string& error);
  ~PgStore() override;

  std::string describe() const override { return described_; }
  bool shared() const override { return true; }

  bool begin_group() override;
  bool end_group(std::string& error) override;
  bool in_doubt() const override { return doubt_.has_value(); }
  std::optional<bool> resolve_doubt() override;
  void refuse_lone_writes(bool refuse) override { refuse_lone_ = refuse; }

 protected:
  std::vector<SqlRow> query(std::string_view sql, const std::vector<SqlValue>& params) override;
  WriteResult transact(std::string_view what, const std::function<WriteResult()>& body) override;
  void reading(std::string_view what, const std::function<void()>& body) override;
  // Byte order whatever the database's locale.
  std::string bytewise() const override { return " COLLATE \"C\""; }
  std::string row_lock() const override { return " FOR SHARE"; }

 private:
  struct Pg;  // the connection, its statement runner and the statements it prepared
  PgStore(std::unique_ptr<Pg> pg, std::string url, std::string described);
  // True when the connection is open, after opening it again if the database had closed it.
  bool connected();

  std::unique_ptr<Pg> pg_;
  std::string url_;  // to connect again
  std::string described_;
  bool group_lost_ = false;   // a failure inside the group could not be rolled back alone
  bool refuse_lone_ = false;  // writes outside a group fail (refuse_lone_writes)
  // Each group inserts its mark (writer_, its number) in store_groups, the proof asked for when
  // the answer to its COMMIT is lost.
  std::string writer_;
  std::int64_t groups_ = 0;            // the number of the last group begun
  std::optional<std::int64_t> doubt_;  // a group whose COMMIT's answer was lost
};

}  // namespace tanbo_server::server::store
