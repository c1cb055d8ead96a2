#pragma once
// A real server in this process on an ephemeral port, over a real SQLite file in a fresh
// temporary directory. The fixtures go straight through the Store before the server starts.
#include <functional>
#include <future>
#include <memory>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "engine/core/match.hpp"
#include "server/store/worker.hpp"
#include "tests/server/store/support.hpp"
#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"

namespace tanbo_server::server::api::testing {

using Json = nlohmann::json;
using store::testing::TempDir;

// The `code` of an API error body ({"error": {"code", "message"}}).
inline std::string error_code(const Json& body) {
  return body.at("error").at("code").get<std::string>();
}

struct ApiServer {
  explicit ApiServer(const std::function<void(store::Store&)>& fill = {})
      : server(test::loopback_config(), std::make_shared<UnknownTypeHandler>()) {
    auto s = store::testing::open_store(dir.db());
    if (fill) fill(*s);
    worker = std::make_shared<store::StoreWorker>(std::move(s));
    server.use_store(worker);
    server.start();
  }
  ~ApiServer() { server.stop(std::chrono::milliseconds(0)); }

  std::uint16_t port() const { return server.port(); }
  test::HttpReply get(const std::string& target) const { return test::http_get(port(), target); }
  Json get_json(const std::string& target, unsigned status = 200) const {
    auto res = get(target);
    INFO(target << " -> " << res.status << " " << res.body);
    REQUIRE(res.status == status);
    REQUIRE(res.content_type == "application/json");
    return Json::parse(res.body);
  }
  // Runs `job` on the worker's thread and waits for it.
  void run(std::function<void(store::Store&)> job) {
    std::promise<void> done;
    REQUIRE(worker->post([&](store::Store& s) {
      job(s);
      done.set_value();
    }));
    done.get_future().wait();
  }

  TempDir dir;
  std::shared_ptr<store::StoreWorker> worker;
  Server server;
};

inline Json result(std::vector<int> places, const char* reason = "empty") {
  return {{"places", std::move(places)}, {"reason", reason}};
}

inline void add_players(store::Store& s) {
  REQUIRE(s.create_identity("alice", "Alice", "hash-a").ok());
  REQUIRE(s.create_identity("bob", "Bob", "hash-b").ok());
  REQUIRE(s.create_identity("carol", "Carol", "hash-c").ok());
}

// A room whose game 1 ends at once with `places`, finished at `finished_at`.
inline void finished_room(store::Store& s, const std::string& id, std::vector<std::string> seats,
                          std::vector<int> places, std::int64_t finished_at, bool ranked = false,
                          const std::string& game = "mancala-simple") {
  store::RoomRow row = store::testing::sample_room(id, finished_at - 60'000);
  row.game = game;
  if (game != "mancala-simple")
    row.options = {{"first", 0}}, row.first_drawn = false, row.first = 0;
  row.seats = std::move(seats);
  row.ranked = ranked;
  REQUIRE(s.create_room(row).ok());
  REQUIRE(s.finish_game(id, 1, result(std::move(places), "resign"), finished_at).ok());
}

// How play_match plays a room: which game (its options: `first` drawn), whether the deciding seat
// resigns after `resign_after` actions (R3; 0: never), whether the room is ranked.
struct Play {
  std::string game = "mancala-simple";
  std::size_t resign_after = 0;
  bool ranked = true;
};

// Plays room `id`'s game 1 to its end with engine::Match, taking the legal actions in a fixed
// rotation, and logs every accepted action and the result as a room would; the finished Match.
inline std::unique_ptr<engine::Match> play_match(store::Store& s, const std::string& id,
                                                 std::int64_t finished_at, const Play& how = {}) {
  store::RoomRow row = store::testing::sample_room(id, finished_at - 60'000);
  row.ranked = how.ranked;
  row.game = how.game;
  if (how.game != "mancala-simple") row.options = {{"first", "random"}};
  engine::Record head;
  head.game = row.game;
  head.options = row.options;
  head.players = row.players;
  head.seed = store::testing::seed_of("seed of " + id);
  engine::Problems problems;
  auto match = engine::Match::start(head, problems);
  REQUIRE(match);
  row.first = match->first();
  REQUIRE(s.create_room(row).ok());
  for (std::size_t step = 0; match->game().status() != engine::Status::finished; ++step) {
    REQUIRE(step < 3000);
    const engine::Seat seat = match->game().pending().seat;
    if (how.resign_after && step == how.resign_after) {
      REQUIRE_FALSE(match->resign(seat));
      continue;
    }
    const auto& legal = match->legal_json();
    REQUIRE(!legal.empty());
    REQUIRE_FALSE(match->act(seat, legal[(step * 7) % legal.size()]));
  }
  const auto& actions = match->record().actions;
  for (std::size_t i = 0; i < actions.size(); ++i)
    REQUIRE(
        s.append_action(id, 1, static_cast<std::int64_t>(i + 1), actions[i].seat, actions[i].action)
            .ok());
  auto r = match->game().result();
  REQUIRE(s.finish_game(id, 1, {{"places", r.places}, {"reason", r.reason}}, finished_at).ok());
  return match;
}

// A ranked game of mancala-simple played to its end; its record.
inline engine::Record play_room(store::Store& s, const std::string& id, std::int64_t finished_at) {
  return play_match(s, id, finished_at)->record();
}

}  // namespace tanbo_server::server::api::testing
