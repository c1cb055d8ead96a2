#pragma once
// Real SQLite files in a fresh temporary directory per test; no mocks.
#include <SQLiteCpp/Database.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include <catch2/catch.hpp>

#include "engine/core/rng.hpp"
#include "server/store/store.hpp"

namespace tanbo::server::store::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("tanbo-store-" + std::to_string(rd()) + "-" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // data/tanbo.db under the directory: the data directory does not exist yet.
  std::filesystem::path db() const { return path_ / "data" / "tanbo.db"; }

 private:
  std::filesystem::path path_;
};

inline std::unique_ptr<Store> open_store(const std::filesystem::path& path,
                                         Durability d = Durability::normal) {
  std::string error;
  auto store = Store::open(path, d, error);
  INFO(error);
  REQUIRE(store);
  return store;
}

// A second connection on the same file, for what only raw SQL can do or see.
inline SQLite::Database raw(const std::filesystem::path& path) {
  return SQLite::Database(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE, 5000);
}

inline engine::Seed seed_of(const std::string& text) { return engine::seed_from_text(text); }

// A 2-player mancala-simple room; its seed is derived from the room id.
inline RoomRow sample_room(const std::string& id, std::int64_t created_at = 1'700'000'000'000) {
  RoomRow r;
  r.id = id;
  r.game = "mancala-simple";
  r.options = {{"holes", 6}, {"stones", 4}, {"full_ranking", true}, {"first", "random"}};
  r.setup = nullptr;
  r.players = 2;
  auto seed = seed_of("seed of " + id);
  r.seed = engine::seed_hex(seed);
  r.commit = engine::seed_commitment(seed);
  r.ranked = false;
  r.timer = {{"turn_ms", 30000}};
  r.created_at = created_at;
  r.first = 1;
  r.first_drawn = true;
  r.seats = {"alice", "bob"};
  r.game_no = 1;
  return r;
}

}  // namespace tanbo::server::store::testing
