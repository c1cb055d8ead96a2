#pragma once
// The shared store: PostgreSQL through libpqxx (--store postgresql://...), for several server
// nodes on one database. The same schema and migrations as SQLite (schema.cpp), the same answers.
#include <memory>
#include <string>

#include "server/store/store.hpp"

namespace pqxx {
class result;
}

namespace tanbo::server::store {

class PgStore final : public Store {
 public:
  // Connects to `url` (a libpq URI: postgresql://user:password@host:port/db?options) and
  // migrates the database to kSchemaVersion, one node at a time. Null with `error` set when it
  // cannot, including a database from a newer server.
  static std::unique_ptr<PgStore> open(const std::string& url, std::string& error);
  ~PgStore() override;

  std::string describe() const override { return described_; }

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
  struct Pg;  // the connection and its statement runner
  PgStore(std::unique_ptr<Pg> pg, std::string described);
  template <class... Args>
  pqxx::result run(const std::string& sql, Args&&... args);
  template <class F>
  WriteResult write(std::string_view what, F&& body);
  template <class F>
  auto read(std::string_view what, F&& body) -> decltype(body());
  Json summaries(const pqxx::result& rows);
  Json players_info(std::int64_t game_seq, bool finished, std::string_view room);
  // The unfinished rooms, or only room `only`: load_unfinished and load_room.
  std::vector<LoadedRoom> load_rooms(const Log& log, std::optional<std::string_view> only,
                                     std::optional<std::int64_t> finished_since);

  std::unique_ptr<Pg> pg_;
  std::string described_;
  bool group_lost_ = false;  // a failure inside the group could not be rolled back alone
};

}  // namespace tanbo::server::store
