// M1 and the interface: options, set-up, the registry entry, action and state JSON, and play
// through a Match as a client sends it.
#include <catch2/catch.hpp>

#include "engine/core/match.hpp"
#include "tests/engine/games/mancala_simple/fixtures.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

const State& state_of(const Game& g) { return static_cast<const MancalaSimple&>(g).state(); }

Created create(const Json& options, int players) {
  Drbg rng(seed_from_text("mancala-catalogue"));
  return create_game("mancala-simple", options, nullptr, players, rng);
}

TEST_CASE("M1: holes 6, 7 with 2 players or 4 with 3-4, a combination not allowed plays 6",
          "[mancala][options]") {
  auto [players, requested, effective] = GENERATE(table<int, int, int>(
      {{2, 6, 6}, {2, 7, 7}, {2, 4, 6}, {3, 6, 6}, {3, 4, 4}, {3, 7, 6}, {4, 4, 4}, {4, 7, 6}}));
  CAPTURE(players, requested);
  Created c = create({{"holes", requested}, {"first", 0}}, players);
  REQUIRE(c.game);
  CHECK(state_of(*c.game).holes == effective);
  CHECK(c.game->state_json()["holes"] == effective);
  SECTION("the normalized options keep the value asked for") {
    CHECK(c.options["holes"] == requested);
  }
  SECTION("the side has that many holes to sow") {
    ActionList legal;
    c.game->legal_actions(legal);
    CHECK(int(legal.size()) == effective);
  }
}

TEST_CASE("M1: the standard set-up", "[mancala][options]") {
  Created c = create({{"stones", 3}, {"first", 2}}, 3);
  REQUIRE(c.game);
  const State& s = state_of(*c.game);
  SECTION("every hole holds the stones asked for, every store is empty") {
    for (Seat t = 0; t < 3; ++t) {
      for (int h = 0; h < 6; ++h) CHECK(s.hole(t, h) == 3);
      CHECK(s.store(t) == 0);
    }
  }
  SECTION("the first seat sows, every seat is in the circuit") {
    CHECK(c.game->pending().seat == 2);
    CHECK(c.game->pending().decision == "sow");
    for (Seat t = 0; t < 3; ++t) CHECK(s.in_circuit(t));
  }
  SECTION("defaults: 2 players, 6 holes, 4 stones, full ranking") {
    Created d = create(nullptr, 2);
    REQUIRE(d.game);
    CHECK(state_of(*d.game) == setup(2, 6, 4, true, d.first));
  }
}

TEST_CASE("M1: a bad option or a set-up is refused, naming the field", "[mancala][options]") {
  auto field_of = [](const Json& options, const Json& setup, int players) {
    Drbg rng(seed_from_text("bad"));
    Created c = create_game("mancala-simple", options, setup, players, rng);
    CHECK_FALSE(c.game);
    return c.problems.empty() ? std::string() : c.problems.front().field;
  };
  CHECK(field_of({{"stones", 5}}, nullptr, 2) == "stones");
  CHECK(field_of({{"holes", 5}}, nullptr, 2) == "holes");
  CHECK(field_of({{"full_ranking", 1}}, nullptr, 2) == "full_ranking");
  CHECK(field_of({{"turn_timer", 30}}, nullptr, 2) == "turn_timer");
  CHECK(field_of(nullptr, Json::object(), 2) == "setup");
  CHECK(field_of(nullptr, nullptr, 5) == "players");
}

TEST_CASE("the registry lists mancala-simple for 2 to 4 players with its options",
          "[mancala][options]") {
  const GameInfo* info = find_game("mancala-simple");
  REQUIRE(info);
  const Json j = info->to_json();
  CHECK(j["players"] == R"({"min": 2, "max": 4, "default": 2})"_json);
  std::vector<std::string> names;
  for (const auto& o : j["options"]) names.push_back(o["name"]);
  CHECK(names == std::vector<std::string>{"holes", "stones", "full_ranking", "first"});
  CHECK(j["options"][0]["allowed"] == R"([4, 6, 7])"_json);
  CHECK(j["options"][1]["allowed"] == R"([3, 4])"_json);
  CHECK(j["options"][2]["default"] == true);
}

TEST_CASE("action JSON is the mover's hole from their left, the state JSON", "[mancala][json]") {
  MancalaSimple g(setup(2, 6, 4, true, 1));
  CHECK(g.action_json(Action{2}) == R"({"hole": 2})"_json);
  test::sow(g, 2);  // seat 1: holes 3, 4, 5 and its store: another move
  CHECK(g.state_json() == R"({
    "holes": 6, "stones": 4, "full_ranking": true, "to_move": 1,
    "seats": [
      {"holes": [4, 4, 4, 4, 4, 4], "store": 0, "in_circuit": true, "place": null, "placed": null},
      {"holes": [4, 4, 0, 5, 5, 5], "store": 1, "in_circuit": true, "place": null, "placed": null}
    ]})"_json);
  SECTION("once over, no one moves and every seat shows its place") {
    g.resign(1, nullptr);
    const Json j = g.state_json();
    CHECK(j["to_move"] == nullptr);
    CHECK(j["seats"][0]["place"] == 1);
    CHECK(j["seats"][0]["placed"] == "last_left");
    CHECK(j["seats"][1]["placed"] == "resigned");
    CHECK(j["seats"][1]["in_circuit"] == false);
  }
}

TEST_CASE("a Match plays {\"hole\": h} as the client sends it", "[mancala][json]") {
  Record head;
  head.game = "mancala-simple";
  head.options = {{"first", 0}};
  head.seed = seed_from_text("mancala-match");
  Problems problems;
  auto m = Match::start(head, problems);
  REQUIRE(m);
  CHECK(m->legal_json() ==
        R"([{"hole":0},{"hole":1},{"hole":2},{"hole":3},{"hole":4},{"hole":5}])"_json);

  SECTION("a legal sowing is accepted and its events follow the action") {
    REQUIRE_FALSE(m->act(0, R"({"hole": 2})"_json));
    CHECK(m->events().json()[0]["type"] == "action");
    CHECK(m->events().json()[1]["type"] == "sow");
    CHECK(m->events().json()[2] == R"({"type": "extra_move", "seat": 0})"_json);
    CHECK(m->game().pending().seat == 0);
  }
  SECTION("an emptied hole, another seat or a hole off the side is refused") {
    REQUIRE_FALSE(m->act(0, R"({"hole": 2})"_json));
    CHECK(m->act(0, R"({"hole": 2})"_json)->code == RefusalCode::illegal_action);
    CHECK(m->act(1, R"({"hole": 0})"_json)->code == RefusalCode::not_your_turn);
    CHECK(m->act(0, R"({"hole": 6})"_json)->code == RefusalCode::illegal_action);
  }
  SECTION("a resignation ends a 2-player game") {
    REQUIRE_FALSE(m->resign(1));
    CHECK(m->game().result() == Result{{1, 2}, "resigned"});
    CHECK(m->events().json().back()["type"] == "end");
  }
}

}  // namespace
}  // namespace tanbo_server::engine::games::mancala_simple
