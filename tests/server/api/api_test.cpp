// The HTTP API over a real store: records (R1, R2), lists, players and ratings (M7), /healthz.
#include <SQLiteCpp/Database.h>

#include "engine/cli/verify.hpp"
#include "tests/server/api/support.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::api::testing;
using tanbo_server::server::store::Store;

namespace {

std::string error_message(const Json& body) {
  return body.at("error").at("message").get<std::string>();
}

std::vector<std::string> ids(const Json& page) {
  std::vector<std::string> out;
  for (const auto& g : page.at("games")) out.push_back(g.at("id").get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("R2: a finished game fetched over HTTP verifies, and fails with one action altered",
          "[server][api][records]") {
  tanbo_server::engine::Record played;
  ApiServer fx([&](Store& s) {
    add_players(s);
    played = play_room(s, "v", 1'700'000'100'000);
  });
  Json record = fx.get_json("/api/games/v-1");

  SECTION("the record is the replay format with the seed, players, result and times") {
    CHECK(record.at("status") == "finished");
    CHECK(record.at("game") == "mancala-simple");
    CHECK(record.at("seed") == tanbo_server::engine::seed_hex(played.seed));
    CHECK(record.at("actions").size() == played.actions.size());
    CHECK(record.at("players_info").at(0).at("id") == "alice");
    CHECK(record.at("players_info").at(1).at("name") == "Bob");
    CHECK(record.at("result").at("places").size() == 2);
    CHECK(record.at("finished_at") == 1'700'000'100'000);
    CHECK(record.at("commit") == tanbo_server::engine::seed_commitment(played.seed));
  }
  SECTION("engine verification accepts it") {
    auto verdict = tanbo_server::engine::verify_record(record);
    INFO(verdict.mismatch);
    CHECK(verdict.verified);
  }
  SECTION("one altered action fails verification, naming where") {
    REQUIRE(record.at("actions").size() >= 2);
    Json& action = record["actions"][1]["action"];
    REQUIRE(action.contains("hole"));
    action["hole"] = action["hole"].get<int>() == 0 ? 1 : 0;
    auto verdict = tanbo_server::engine::verify_record(record);
    CHECK_FALSE(verdict.verified);
    CHECK_FALSE(verdict.mismatch.empty());
  }
  SECTION("another seed fails verification against the commitment") {
    record["seed"] = tanbo_server::engine::seed_hex(tanbo_server::engine::seed_from_text("not it"));
    CHECK_FALSE(tanbo_server::engine::verify_record(record).verified);
  }
}

TEST_CASE("R1: the record of a game still playing has no seed", "[server][api][records]") {
  store::RoomRow row = store::testing::sample_room("u");
  ApiServer fx([&](Store& s) {
    add_players(s);
    REQUIRE(s.create_room(row).ok());
    REQUIRE(s.append_action("u", 1, 1, 1, Json{{"hole", 3}}).ok());
  });
  auto res = fx.get("/api/games/u-1");
  REQUIRE(res.status == 200u);
  Json record = Json::parse(res.body);
  CHECK(record.at("status") == "playing");
  CHECK_FALSE(record.contains("seed"));
  CHECK(res.body.find(row.seed) == std::string::npos);
  CHECK(record.at("commit") == row.commit);
  CHECK(record.at("actions").size() == 1);
  CHECK(record.at("result").is_null());
}

TEST_CASE("GET /api/games/{id} answers 404 for a game that does not exist", "[server][api]") {
  ApiServer fx([](Store& s) {
    add_players(s);
    finished_room(s, "r", {"alice", "bob"}, {1, 2}, 1'700'000'000'000);
  });
  for (const char* target : {"/api/games/r-2", "/api/games/nope", "/api/games/r-x"}) {
    CAPTURE(target);
    Json body = fx.get_json(target, 404);
    CHECK(error_code(body) == "not_found");
    CHECK(body.at("status") == 404);
  }
  SECTION("a path below a game is no endpoint") {
    CHECK(fx.get("/api/games/r-1/more").status == 404u);
  }
  SECTION("HEAD answers the headers alone") {
    auto head = test::http_request(fx.port(), "HEAD", "/api/games/r-1");
    CHECK(head.status == 200u);
    CHECK(head.body.empty());
  }
}

TEST_CASE("GET /api/games pages finished games newest first", "[server][api][list]") {
  const std::int64_t t0 = 1'700'000'000'000;
  ApiServer fx([&](Store& s) {
    add_players(s);
    finished_room(s, "g1", {"alice", "bob"}, {1, 2}, t0 + 1000);
    finished_room(s, "g2", {"bob", "carol"}, {2, 1}, t0 + 2000);
    finished_room(s, "g3", {"alice", "carol"}, {1, 1}, t0 + 3000);
    finished_room(s, "g4", {"alice", "bob"}, {2, 1}, t0 + 4000);
    finished_room(s, "g5", {"carol", "alice"}, {1, 2}, t0 + 5000, false, "tsoro");
    REQUIRE(s.create_room(store::testing::sample_room("open", t0)).ok());  // not finished
  });

  SECTION("without parameters: every finished game, newest first, no next page") {
    Json page = fx.get_json("/api/games");
    CHECK(ids(page) == std::vector<std::string>{"g5-1", "g4-1", "g3-1", "g2-1", "g1-1"});
    CHECK(page.at("next").is_null());
    CHECK_FALSE(page.at("games").at(0).contains("seed"));
  }
  SECTION("limit and before walk the pages without a gap or a repeat") {
    Json p1 = fx.get_json("/api/games?limit=2");
    CHECK(ids(p1) == std::vector<std::string>{"g5-1", "g4-1"});
    REQUIRE(p1.at("next").is_string());
    Json p2 = fx.get_json("/api/games?limit=2&before=" + p1.at("next").get<std::string>());
    CHECK(ids(p2) == std::vector<std::string>{"g3-1", "g2-1"});
    REQUIRE(p2.at("next").is_string());
    Json p3 = fx.get_json("/api/games?limit=2&before=" + p2.at("next").get<std::string>());
    CHECK(ids(p3) == std::vector<std::string>{"g1-1"});
    CHECK(p3.at("next").is_null());
  }
  SECTION("before as a time in ms keeps the games finished strictly earlier") {
    CHECK(ids(fx.get_json("/api/games?before=" + std::to_string(t0 + 3000))) ==
          std::vector<std::string>{"g2-1", "g1-1"});
  }
  SECTION("player and game filter, percent-decoded") {
    CHECK(ids(fx.get_json("/api/games?player=bob")) ==
          std::vector<std::string>{"g4-1", "g2-1", "g1-1"});
    CHECK(ids(fx.get_json("/api/games?player=%61lice&game=mancala-simple")) ==
          std::vector<std::string>{"g4-1", "g3-1", "g1-1"});
    CHECK(ids(fx.get_json("/api/games?game=tsoro")) == std::vector<std::string>{"g5-1"});
    CHECK(ids(fx.get_json("/api/games?player=nobody")).empty());
  }
}

TEST_CASE("GET /api/games refuses bad parameters with 400 naming the parameter",
          "[server][api][list]") {
  ApiServer fx;
  struct Row {
    const char* query;
    const char* parameter;
  };
  auto row =
      GENERATE(Row{"limit=0", "limit"}, Row{"limit=101", "limit"}, Row{"limit=abc", "limit"},
               Row{"limit=", "limit"}, Row{"before=yesterday", "before"},
               Row{"before=1.x", "before"}, Row{"game=chess", "game"}, Row{"player=", "player"});
  CAPTURE(row.query);
  Json body = fx.get_json(std::string("/api/games?") + row.query, 400);
  CHECK(error_code(body) == "bad_parameter");
  CHECK(error_message(body).starts_with(row.parameter));
  SECTION("a bad percent-encoding is 400 too") {
    CHECK(fx.get("/api/games?player=%zz").status == 400u);
  }
  SECTION("limit 100 is the largest accepted") {
    CHECK(fx.get("/api/games?limit=100").status == 200u);
  }
}

TEST_CASE("M7: players and the leaderboard show the ratings of ranked games",
          "[server][api][ratings]") {
  const std::int64_t t0 = 1'700'000'000'000;
  ApiServer fx([&](Store& s) {
    add_players(s);
    finished_room(s, "a", {"alice", "bob"}, {1, 2}, t0 + 1000, true);
    finished_room(s, "b", {"alice", "carol"}, {1, 2}, t0 + 2000, true);
    finished_room(s, "c", {"bob", "carol"}, {1, 2}, t0 + 3000, false);  // unranked
  });

  SECTION("GET /api/players/{id}: name, ratings per game and recent games") {
    Json alice = fx.get_json("/api/players/alice");
    CHECK(alice.at("name") == "Alice");
    const Json& rating = alice.at("ratings").at("mancala-simple");
    CHECK(rating.at("games") == 2);
    CHECK(rating.at("rating").get<double>() > 1500.0);
    CHECK(ids(Json{{"games", alice.at("recent")}}) == std::vector<std::string>{"b-1", "a-1"});
  }
  SECTION("an unknown player is 404") {
    CHECK(error_code(fx.get_json("/api/players/nobody", 404)) == "not_found");
  }
  SECTION("GET /api/leaderboard?game= ranks the rated players best first") {
    Json board = fx.get_json("/api/leaderboard?game=mancala-simple");
    CHECK(board.at("game") == "mancala-simple");
    const Json& rows = board.at("leaderboard");
    REQUIRE(rows.size() == 3);
    CHECK(rows.at(0).at("id") == "alice");
    CHECK(rows.at(0).at("rank") == 1);
    CHECK(rows.at(0).at("rating").get<double>() > rows.at(2).at("rating").get<double>());
    CHECK(fx.get_json("/api/leaderboard?game=mancala-simple&limit=1").at("leaderboard").size() ==
          1);
  }
  SECTION("a game without rated players has an empty leaderboard") {
    CHECK(fx.get_json("/api/leaderboard?game=tsoro").at("leaderboard").empty());
  }
  SECTION("an unknown or missing game is 400") {
    CHECK(error_message(fx.get_json("/api/leaderboard?game=chess", 400)).starts_with("game"));
    CHECK(error_message(fx.get_json("/api/leaderboard", 400)).starts_with("game"));
  }
}

TEST_CASE("the API refuses what it does not serve", "[server][api]") {
  ApiServer fx;
  SECTION("an unknown /api path is 404") {
    CHECK(error_code(fx.get_json("/api/nothing", 404)) == "not_found");
    CHECK(fx.get("/api/players/").status == 404u);
  }
  SECTION("POST is 405") {
    auto res = test::http_request(fx.port(), "POST", "/api/games");
    CHECK(res.status == 405u);
    CHECK(error_code(Json::parse(res.body)) == "bad_method");
  }
}

TEST_CASE("without a store the API answers 503", "[server][api]") {
  test::InProcessServer fx;
  auto res = test::http_get(fx.port(), "/api/games");
  CHECK(res.status == 503u);
  CHECK(error_code(Json::parse(res.body)) == "store_unavailable");
  CHECK(test::http_get(fx.port(), "/healthz").status == 200u);
}

TEST_CASE("/healthz turns degraded (503) once a store write fails", "[server][api][health]") {
  ApiServer fx([](Store& s) { add_players(s); });
  Json ok = fx.get_json("/healthz");
  CHECK(ok.at("status") == "ok");
  CHECK(ok.at("store") == "ok");

  // Another connection holds the write lock: the store's next write fails at once.
  auto other = store::testing::raw(fx.dir.db());
  other.exec("BEGIN EXCLUSIVE");
  bool written = true;
  fx.run([&](Store& s) { written = s.set_name("alice", "Alicia").ok(); });
  other.exec("ROLLBACK");
  REQUIRE_FALSE(written);

  Json degraded = fx.get_json("/healthz", 503);
  CHECK(degraded.at("status") == "degraded");
  CHECK(degraded.at("store") == "failing");
  SECTION("reads still answer") { CHECK(fx.get("/api/players/alice").status == 200u); }
}
