// The registry entry, options, action JSON and state JSON of tanbo.
#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "support.hpp"

using namespace tanbo_server::engine::games::tanbo;
using namespace tanbo_server::engine::games::tanbo::test;
namespace core = ::tanbo_server::engine;

TEST_CASE("The registry lists tanbo with the options of its rules page and their defaults",
          "[tanbo][json]") {
  const core::GameInfo* info = core::find_game("tanbo");
  REQUIRE(info);
  CHECK(info->name == "Tanbo (Musoka Studio)");
  CHECK(info->min_players == 2);
  CHECK(info->max_players == 2);
  const Json j = info->to_json();
  Json defaults = Json::object();
  for (const Json& o : j["options"]) defaults[o["name"].get<std::string>()] = o["default"];
  CHECK(defaults == Json{{"replay_cascade", true},
                         {"forbid_noop_swap", false},
                         {"farmer_counts_toward_limit", false},
                         {"stall_rounds", 60},
                         {"first", "random"}});
}

TEST_CASE("Bad options are refused, each named", "[tanbo][json]") {
  core::Drbg rng(core::seed_from_text("options"));
  auto [options, field] = GENERATE(table<Json, std::string>({
      {{{"stall_rounds", 0}}, "stall_rounds"},
      {{{"stall_rounds", 1001}}, "stall_rounds"},
      {{{"stall_rounds", "60"}}, "stall_rounds"},
      {{{"replay_cascade", "yes"}}, "replay_cascade"},
      {{{"forbid_noop_swap", 1}}, "forbid_noop_swap"},
      {{{"housaku", true}}, "housaku"},
      {{{"first", 2}}, "first"},
  }));
  CAPTURE(options.dump());
  const core::Created created = core::create_game("tanbo", options, nullptr, 2, rng);
  CHECK_FALSE(created.game);
  REQUIRE(created.problems.size() == 1);
  CHECK(created.problems[0].field == field);
}

TEST_CASE("Options reach the game", "[tanbo][json]") {
  core::Drbg rng(core::seed_from_text("options"));
  const core::Created created = core::create_game("tanbo",
                                                  {{"replay_cascade", false},
                                                   {"forbid_noop_swap", true},
                                                   {"farmer_counts_toward_limit", true},
                                                   {"stall_rounds", 7}},
                                                  nullptr, 2, rng);
  REQUIRE(created.game);
  const Options& o = static_cast<const TanboGame&>(*created.game).options();
  CHECK(o == Options{false, true, true, 7});
  CHECK(created.game->state_json()["stall_turns"] == 14);
}

TEST_CASE("Action JSON is small and self-describing", "[tanbo][json]") {
  const TanboGame g(State{}, Options{});
  auto [action, json] = GENERATE(table<Action, Json>({
      {place_farmer_action(2), R"({"farmer":2})"_json},
      {sow_action(Black), R"({"sow":"black"})"_json},
      {sow_action(Farmer), R"({"sow":"farmer"})"_json},
      {take(1, 0, 2), R"({"harvest":{"yellow":1,"black":0,"red":2}})"_json},
      {give(1, 0, 0), R"({"return":{"yellow":1,"black":0,"red":0}})"_json},
      {swap_action(0, Snake, 3, Farmer),
       R"({"swap":[{"paddy":0,"token":"snake"},{"paddy":3,"token":"farmer"}]})"_json},
      {cut(4, 1, 0, 1, 0), R"({"trim":{"paddy":4,"snakes":1,"yellow":0,"black":1,"red":0}})"_json},
  }));
  CHECK(g.action_json(action) == json);
}

TEST_CASE("State JSON shows the board, the bag, the pool, the harvests, the hand and the decision",
          "[tanbo][json]") {
  const State s = position({F(1), P(), P(0, 4), P(2), P(2)}, standard_ring(0), H(1, 0, 1));
  const TanboGame g = turn_of(0, s);
  const Json j = g.state_json();
  CHECK(j["status"] == "playing");
  CHECK(j["decision"] == "sow");
  CHECK(j["seat"] == 0);
  CHECK(j["rings"][0][2] == R"({"snakes":0,"yellow":4,"black":0,"red":0,"farmer":false})"_json);
  CHECK(j["rings"][1][0] == R"({"snakes":2,"yellow":0,"black":0,"red":0,"farmer":true})"_json);
  CHECK(j["bag"] == R"({"yellow":10,"black":10,"red":4})"_json);
  CHECK(j["pool"] == 5);
  CHECK(j["harvest"][0] == R"({"yellow":1,"black":0,"red":1})"_json);
  CHECK(j["score"] == R"([8,0])"_json);
  CHECK(j["hand"] == R"({"snakes":1,"yellow":0,"black":0,"red":0,"farmer":true})"_json);
  CHECK(j["cursor"] == 1);
  CHECK(j["turn"] == 1);
  CHECK(j["quiet_turns"] == 0);
  CHECK(j["stall_turns"] == 120);
  CHECK_FALSE(j.contains("result"));
  CHECK(j["to_move"] == 0);  // the seat deciding, as in every game
  CHECK(j["tokens_to_move"] == 0);
  // In protocol version 1's names, to_move is the count.
  const Json old = Json::parse(core::state_text(g, core::Names::v1));
  Json now = j;
  now["to_move"] = now["tokens_to_move"];
  now.erase("tokens_to_move");
  CHECK(old == now);
}

TEST_CASE("Resignation (R3) ends the game for the other seat, in set-up or in play",
          "[tanbo][json]") {
  SECTION("in set-up") {
    core::Drbg rng(core::seed_from_text("resign"));
    auto created = core::create_game("tanbo", nullptr, nullptr, 2, rng);
    REQUIRE(created.game);
    Events written;
    created.game->resign(0, &written);
    CHECK(written.json() == R"([{"type": "victory", "seat": 1, "reason": "resigned"}])"_json);
    CHECK(created.game->status() == core::Status::finished);
    CHECK(created.game->result() == core::Result{{2, 1}, "resigned"});
    CHECK(created.game->state_json()["result"] == R"({"winner":1,"reason":"resigned"})"_json);
    CHECK(created.game->invariant_violation() == "");
  }
  SECTION("in play, by the seat not to move") {
    TanboGame g = turn_of(0, position(standard_ring(0), standard_ring(0)));
    REQUIRE(g.status() == core::Status::playing);
    Events written;
    g.resign(1, &written);
    CHECK(written.json() == R"([{"type": "victory", "seat": 0, "reason": "resigned"}])"_json);
    CHECK(g.status() == core::Status::finished);
    CHECK(g.result() == core::Result{{1, 2}, "resigned"});
    CHECK(g.state_json()["result"] == R"({"winner":0,"reason":"resigned"})"_json);
    CHECK(g.invariant_violation() == "");
  }
}
