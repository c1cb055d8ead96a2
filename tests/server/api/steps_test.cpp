// GET /api/games/{id}/steps: a finished record replayed through the engine (R2), the public state
// after each step as the room's `state` message shows it; never for a game still playing (R1).
#include "server/api/api.hpp"
#include "server/api/serve.hpp"
#include "tests/server/api/support.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::api::testing;
using tanbo_server::server::store::Store;
namespace engine = tanbo_server::engine;

TEST_CASE("R2: the steps of a finished game are its record replayed, one state per action",
          "[server][api][api-steps]") {
  struct Row {
    const char* game;
    std::size_t resign_after;
  };
  auto row = GENERATE(Row{"mancala-simple", 0}, Row{"tsoro", 0}, Row{"steere-tanbo", 0},
                      Row{"tanbo", 0}, Row{"tsoro", 9});
  CAPTURE(row.game, row.resign_after);
  std::unique_ptr<engine::Match> played;
  ApiServer fx([&](Store& s) {
    add_players(s);
    played = play_match(s, "g", 1'700'000'100'000, {row.game, row.resign_after, false});
  });
  const auto& actions = played->record().actions;
  Json body = fx.get_json("/api/games/g-1/steps");
  REQUIRE(body.at("steps").is_array());
  const Json& steps = body.at("steps");

  SECTION("one step per recorded action, plus the start") {
    if (!row.resign_after) CHECK(actions.size() > api::kStepsSlice);  // more than one slice
    CHECK(steps.size() == actions.size() + 1);
    CHECK_FALSE(body.contains("actions"));
  }
  SECTION("step 0 is the start: no seat, no action, the first seat's decision pending") {
    const Json& start = steps.at(0);
    CHECK(start.at("step") == 0);
    CHECK(start.at("seat").is_null());
    CHECK(start.at("action").is_null());
    CHECK(start.at("status") == "playing");
    CHECK(start.at("events").at(0) == Json{{"type", "start"}, {"first", played->first()}});
    CHECK(start.at("pending").at("seat").is_number_integer());
  }
  SECTION("each later step names the record's seat and action, and the events it caused") {
    REQUIRE(steps.size() == actions.size() + 1);
    for (std::size_t i = 0; i < actions.size(); ++i) {
      CAPTURE(i);
      const Json& step = steps.at(i + 1);
      CHECK(step.at("step") == i + 1);
      CHECK(step.at("seat") == actions[i].seat);
      CHECK(step.at("action") == actions[i].action);
      const bool resigned = actions[i].action == Json(engine::kResign);
      CHECK(step.at("events").at(0).at("type") == (resigned ? "resign" : "action"));
    }
  }
  SECTION("the last step is the finished game: its state, and the record's result") {
    const Json& last = steps.back();
    CHECK(last.at("status") == "finished");
    CHECK(last.at("pending").is_null());
    CHECK(last.at("state") == played->game().state_json());
    const auto r = played->game().result();
    CHECK(last.at("result") == Json{{"places", r.places}, {"reason", r.reason}});
    CHECK(last.at("result") == body.at("result"));
    CHECK(last.at("events").back().at("type") == "end");
  }
  SECTION("the game's members are given once, at the top; the seed with them (R1: it is over)") {
    CHECK(body.at("id") == "g-1");
    CHECK(body.at("game") == row.game);
    CHECK(body.at("seed") == engine::seed_hex(played->record().seed));
    CHECK(body.at("commit") == engine::seed_commitment(played->record().seed));
    CHECK(body.at("players_info").size() == 2);
    for (const char* room_only : {"type", "room", "seats", "spectators", "commit", "seed"})
      CHECK_FALSE(steps.at(1).contains(room_only));
  }
}

TEST_CASE("the steps of a game are refused while it is played, and for no such game",
          "[server][api][api-steps]") {
  store::RoomRow live = store::testing::sample_room("live");
  ApiServer fx([&](Store& s) {
    add_players(s);
    REQUIRE(s.create_room(live).ok());
    REQUIRE(s.append_action("live", 1, 1, 1, Json{{"hole", 3}}).ok());
  });

  SECTION("R1: a game still playing is 409 not_finished, and its seed stays secret") {
    auto res = fx.get("/api/games/live-1/steps");
    CHECK(res.status == 409u);
    CHECK(res.content_type == "application/json");
    Json body = Json::parse(res.body);
    CHECK(error_code(body) == "not_finished");
    CHECK(body.at("status") == 409);
    CHECK(res.body.find(live.seed) == std::string::npos);
  }
  SECTION("an unknown game is 404 not_found") {
    for (const char* target : {"/api/games/nope-1/steps", "/api/games/live-2/steps"}) {
      CAPTURE(target);
      CHECK(error_code(fx.get_json(target, 404)) == "not_found");
    }
  }
  SECTION("no endpoint lies below the steps, nor steps without a game") {
    CHECK(fx.get("/api/games/live-1/steps/1").status == 404u);
    CHECK(fx.get("/api/games//steps").status == 404u);
  }
}

TEST_CASE("a record that does not replay answers 500 replay_failed and the server stays well",
          "[server][api][api-steps]") {
  ApiServer fx([&](Store& s) {
    add_players(s);
    // A hole mancala-simple does not have.
    REQUIRE(s.create_room(store::testing::sample_room("bad")).ok());
    REQUIRE(s.append_action("bad", 1, 1, 1, Json{{"hole", 99}}).ok());
    REQUIRE(s.finish_game("bad", 1, result({1, 2}, "finished"), 1'700'000'100'000).ok());
    // No action at all, yet a result: the game never ended.
    REQUIRE(s.create_room(store::testing::sample_room("short")).ok());
    REQUIRE(s.finish_game("short", 1, result({1, 2}, "finished"), 1'700'000'100'000).ok());
  });

  SECTION("an illegal action: the refusal is named") {
    Json body = fx.get_json("/api/games/bad-1/steps", 500);
    CHECK(error_code(body) == "replay_failed");
    CHECK_THAT(body.at("error").at("message").get<std::string>(),
               Catch::Contains("actions[0]") && Catch::Contains("refused"));
  }
  SECTION("a record that ends before its game does") {
    Json body = fx.get_json("/api/games/short-1/steps", 500);
    CHECK(error_code(body) == "replay_failed");
  }
  SECTION("the store stays healthy: a failed replay is no failed job") {
    fx.get_json("/api/games/bad-1/steps", 500);
    CHECK(fx.get_json("/healthz").at("status") == "ok");
  }
}

TEST_CASE("the steps path parses to GetSteps, percent-decoded", "[server][api][api-steps]") {
  auto parsed = api::parse("GET", "/api/games/r%2Dx-2/steps");
  REQUIRE(std::holds_alternative<api::Query>(parsed));
  const auto& q = std::get<api::Query>(parsed);
  REQUIRE(std::holds_alternative<api::GetSteps>(q));
  CHECK(std::get<api::GetSteps>(q).id == "r-x-2");
  CHECK(std::holds_alternative<api::GetGame>(
      std::get<api::Query>(api::parse("GET", "/api/games/steps"))));
}
