#pragma once
// The embedded store: one SQLite file through SQLiteCpp, in WAL mode. The default.
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_map>

#include "server/store/store.hpp"

struct sqlite3;
namespace SQLite {
class Database;
class Statement;
}  // namespace SQLite

namespace tanbo::server::store {

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

  WriteResult create_room(const RoomRow& row) override;
  WriteResult set_seat(std::string_view room, Seat seat, std::string_view player) override;
  WriteResult append_action(std::string_view room, int game_no, std::int64_t version, Seat seat,
                            const Json& action, const Json& clocks = nullptr,
                            std::int64_t at = 0) override;
  WriteResult start_rematch(std::string_view room, int game_no, std::string_view seed_hex,
                            std::string_view commit, Seat first, bool first_drawn = false,
                            std::int64_t started_at = 0) override;
  WriteResult finish_game(std::string_view room, int game_no, const Json& result,
                          std::int64_t finished_at) override;
  WriteResult set_timer(std::string_view room, const Json& timer) override;
  WriteResult abandon_room(std::string_view room, std::int64_t at) override;
  std::vector<LoadedRoom> load_unfinished(
      const Log& log, std::optional<std::int64_t> finished_since = std::nullopt) override;
  std::optional<LoadedRoom> load_room(
      std::string_view id, const Log& log,
      std::optional<std::int64_t> finished_since = std::nullopt) override;
  std::optional<Json> game_record(std::string_view id) override;
  Json list_games(const std::optional<std::string>& player, const std::optional<std::string>& game,
                  int limit, const std::optional<std::string>& before) override;
  WriteResult set_name(std::string_view id, std::string_view name) override;
  double rating(std::string_view identity, std::string_view game) override;
  std::optional<Json> player(std::string_view id, int recent = 10) override;
  Json leaderboard(std::string_view game, int limit) override;

 protected:
  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params) override;
  WriteResult transact(std::string_view what, const std::function<WriteResult()>& body) override;
  void reading(std::string_view what, const std::function<void()>& body) override;

 private:
  SqliteStore(std::unique_ptr<SQLite::Database> db, std::filesystem::path path);
  template <class F>
  WriteResult write(std::string_view what, F&& body);
  Json summaries(SQLite::Statement& query);
  Json players_info(std::int64_t game_seq, bool finished, std::string_view room);
  // The unfinished rooms, or only room `only`: load_unfinished and load_room.
  std::vector<LoadedRoom> load_rooms(const Log& log, std::optional<std::string_view> only,
                                     std::optional<std::int64_t> finished_since);

  // The statement for `sql` (a string literal: its address is the key), prepared on first use and
  // reset for this one: parsing SQL was a third of the store thread's time per action.
  SQLite::Statement& prepared(const char* sql);

  std::unique_ptr<SQLite::Database> db_;
  std::unordered_map<const char*, std::unique_ptr<SQLite::Statement>> prepared_;
  std::filesystem::path path_;
};

}  // namespace tanbo::server::store
