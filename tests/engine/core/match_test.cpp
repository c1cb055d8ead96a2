// The referee's contract, checked on every registered game through the engine interface only.
#include <catch2/catch.hpp>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

namespace {

Record head(const GameInfo& g, std::string_view seed_text) {
  Record r;
  r.game = g.id;
  r.players = g.default_players;
  r.seed = seed_from_text(seed_text);
  return r;
}

// Plays random legal actions through the Match until the game ends (or `limit` actions).
void play_randomly(Match& m, FastRng& pick, std::size_t limit = 100000) {
  for (std::size_t i = 0; i < limit && m.game().status() != Status::finished; ++i) {
    const Json& legal = m.legal_json();
    REQUIRE(legal.size() >= 2);  // R4: a single choice would have been applied already
    Seat seat = m.game().pending().seat;
    REQUIRE_FALSE(m.act(seat, legal[pick.below(std::uint32_t(legal.size()))]));
  }
}

}  // namespace

TEST_CASE("Every registered game has a valid registry entry", "[core][registry]") {
  REQUIRE_FALSE(all_games().empty());
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    CHECK(find_game(g->id) == g);
    CHECK(g->min_players <= g->default_players);
    CHECK(g->default_players <= g->max_players);
    Json j = g->to_json();
    CHECK(j["options"].back()["name"] == "first");  // R6
    for (const auto& spec : g->options) {
      Problems problems;
      validate_options(option_specs(*g), Json{{spec.name, spec.default_value}}, problems);
      CHECK(problems.empty());
    }
  }
  CHECK(find_game("chess") == nullptr);
}

TEST_CASE("create_game names an unknown game, a bad player count and bad options",
          "[core][registry]") {
  FastRng rng(1);
  Created c = create_game("chess", nullptr, nullptr, 2, rng);
  REQUIRE(c.problems.size() == 1);
  CHECK(c.problems[0].field == "game");
  CHECK_FALSE(c.game);
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Created bad = create_game(g->id, Json{{"first", 7}, {"no_such_option", 1}}, nullptr,
                              g->max_players + 1, rng);
    CHECK_FALSE(bad.game);
    std::vector<std::string> fields;
    for (auto& p : bad.problems) fields.push_back(p.field);
    CHECK(std::count(fields.begin(), fields.end(), "players") == 1);
    CHECK(std::count(fields.begin(), fields.end(), "no_such_option") == 1);
    CHECK(std::count(fields.begin(), fields.end(), "first") == 1);
  }
}

TEST_CASE("R5, R6: a random first seat is the first draw, a given one draws nothing",
          "[core][registry][fairness]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Seed seed = seed_from_text("first");
    Drbg rng(seed), reference(seed);
    Created c = create_game(g->id, nullptr, nullptr, g->default_players, rng);
    REQUIRE(c.game);
    CHECK(c.first == Seat(reference.below(std::uint32_t(g->default_players))));
    CHECK(rng.words_drawn() == reference.words_drawn());
    Drbg untouched(seed);
    Created fixed = create_game(g->id, Json{{"first", 1}}, nullptr, g->default_players, untouched);
    REQUIRE(fixed.game);
    CHECK(fixed.first == 1);
    CHECK(untouched.words_drawn() == 0);
  }
}

TEST_CASE(
    "Match refuses, with a stable code and no change, what is not the pending seat's legal "
    "action",
    "[core][match]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Problems problems;
    auto m = Match::start(head(*g, "refusals"), problems);
    REQUIRE(m);
    REQUIRE(m->game().status() != Status::finished);
    const Json before = m->game().state_json();
    const std::size_t logged = m->record().actions.size();
    Seat seat = m->game().pending().seat;
    Seat other = (seat + 1) % m->game().players();
    const Json action = m->legal_json()[0];

    auto r = m->act(other, action);
    REQUIRE(r);
    CHECK(r->code == RefusalCode::not_your_turn);
    r = m->act(m->game().players(), action);
    REQUIRE(r);
    CHECK(r->code == RefusalCode::not_seated);
    for (const Json& junk : {Json(nullptr), Json(42), Json("resign"), Json::object(),
                             Json{{"no", "such action"}}, Json::array({action, action})}) {
      r = m->act(seat, junk);
      REQUIRE(r);
      CHECK(r->code == RefusalCode::illegal_action);
    }
    CHECK(m->game().state_json() == before);
    CHECK(m->record().actions.size() == logged);
  }
}

TEST_CASE("R3: any seat may resign, and nothing is accepted after the end", "[core][match]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Problems problems;
    auto m = Match::start(head(*g, "resign"), problems);
    REQUIRE(m);
    Seat resigner = (m->game().pending().seat + 1) % m->game().players();
    FastRng pick(5);
    // Resign on behalf of every seat but one until the game ends.
    for (Seat s = 0; s < m->game().players() && m->game().status() != Status::finished; ++s) {
      Seat who = (resigner + s) % m->game().players();
      REQUIRE_FALSE(m->resign(who));
      CHECK(m->record().actions.back() == RecordedAction{who, Json("resign")});
    }
    REQUIRE(m->game().status() == Status::finished);
    CHECK(m->game().result().reason == "resigned");
    CHECK(m->game().result().places[resigner] == m->game().players());
    CHECK(m->events().json().back()["type"] == "end");
    auto r = m->resign(resigner);
    REQUIRE(r);
    CHECK(r->code == RefusalCode::game_over);
    CHECK(m->legal_json().empty());
  }
}

TEST_CASE("R3: a seat that has left a game going on decides nothing more, resigning included",
          "[core][match]") {
  Record r = head(*find_game("mancala-simple"), "left");
  r.players = 3;
  r.options = {{"first", 0}};
  Problems problems;
  auto m = Match::start(r, problems);
  REQUIRE(m);
  REQUIRE_FALSE(m->resign(2));
  REQUIRE(m->game().status() == Status::playing);  // M5: the other two play on
  const Json state = m->game().state_json();
  const auto actions = m->record().actions;
  SECTION("a second resignation is refused not_in_game and recorded nowhere") {
    auto no = m->resign(2);
    REQUIRE(no);
    CHECK(no->code == RefusalCode::not_in_game);
    CHECK(m->record().actions == actions);
    CHECK(m->game().state_json() == state);
  }
  SECTION("so is an action") {
    auto no = m->act(2, {{"hole", 0}});
    REQUIRE(no);
    CHECK(no->code == RefusalCode::not_in_game);
    CHECK(m->record().actions == actions);
  }
  SECTION("a record kept before this rule, repeating the resignation, still replays") {
    Record old = m->record();
    old.actions.push_back({2, Json(kResign)});
    old.actions.push_back({2, Json(kResign)});
    old.actions.push_back({0, {{"hole", 1}}});
    auto replayed = replay(old);
    REQUIRE(replayed.match);
    CHECK_FALSE(replayed.refusal);
    CHECK(replayed.match->record().actions.size() == 2);
  }
}

TEST_CASE("R2, R4: replaying a record reproduces the game, forced decisions are never logged",
          "[core][match][replay]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    for (int n = 0; n < 20; ++n) {
      Problems problems;
      auto m = Match::start(head(*g, "replay:" + std::to_string(n)), problems);
      REQUIRE(m);
      FastRng pick(n);
      play_randomly(*m, pick);
      REQUIRE(m->game().status() == Status::finished);
      Replay r = replay(m->record());
      REQUIRE(r.match);
      REQUIRE_FALSE(r.refusal);
      CHECK(r.match->game().state_json().dump() == m->game().state_json().dump());
      CHECK(r.match->game().result() == m->game().result());
      CHECK(r.match->draws() == m->draws());
      // Every logged action was a real choice: replay never sees a one-action decision logged.
      CHECK(r.match->record().actions == m->record().actions);
    }
  }
}

TEST_CASE("A record with an altered action is refused at that action", "[core][match][replay]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Problems problems;
    auto m = Match::start(head(*g, "altered"), problems);
    REQUIRE(m);
    FastRng pick(3);
    play_randomly(*m, pick, 6);
    Record rec = m->record();
    REQUIRE(rec.actions.size() >= 3);
    rec.actions[2].action = Json{{"not", "an action"}};
    Replay r = replay(rec);
    REQUIRE(r.refusal);
    CHECK(r.failed_at == 2);
    CHECK(r.refusal->code == RefusalCode::illegal_action);
    rec.actions[2] = m->record().actions[2];
    rec.actions[2].seat = (rec.actions[2].seat + 1) % rec.players;
    r = replay(rec);
    REQUIRE(r.refusal);
    CHECK(r.failed_at == 2);
  }
}

TEST_CASE("Records round-trip through JSON and bad records are named", "[core][record]") {
  Record r;
  r.game = "tanbo";
  r.options = {{"first", 0}};
  r.players = 2;
  r.seed = seed_from_text("record");
  r.actions = {{0, Json{{"sow", "snake"}}}, {1, Json("resign")}};
  std::string error;
  auto back = Record::from_json(r.to_json(), error);
  REQUIRE(back);
  CHECK(back->to_json() == r.to_json());
  CHECK(back->actions == r.actions);

  Json j = r.to_json();
  j["seed"] = "xyz";
  CHECK_FALSE(Record::from_json(j, error));
  CHECK(error.rfind("seed", 0) == 0);
  j = r.to_json();
  j["actions"][1] = {{"seat", "one"}};
  CHECK_FALSE(Record::from_json(j, error));
  CHECK(error.rfind("actions[1]", 0) == 0);
  CHECK_FALSE(Record::from_json(Json::array(), error));
}

// The legal list's JSON is built when asked for: a Match that is never asked plays the same game,
// action by action, as one asked at every step, and each legal_action is the list's.
TEST_CASE("the legal list built on demand: the same actions, whether asked for or not",
          "[core][match]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Problems problems;
    auto asked = Match::start(head(*g, "lazy"), problems);
    auto unasked = Match::start(head(*g, "lazy"), problems);
    REQUIRE(asked);
    REQUIRE(unasked);
    FastRng pick(7);
    for (int step = 0; step < 400 && asked->game().status() != Status::finished; ++step) {
      REQUIRE(unasked->legal_count() == asked->legal_json().size());
      const std::size_t i = pick.below(std::uint32_t(unasked->legal_count()));
      Json chosen = unasked->legal_action(i);  // never built as a list on this side
      CHECK(chosen == asked->legal_json()[i]);
      const Seat seat = asked->game().pending().seat;
      // A refusal on the unbuilt side is the same refusal.
      Json wrong = {{"not", "an action"}};
      CHECK(unasked->act(seat, wrong)->code == asked->act(seat, wrong)->code);
      REQUIRE_FALSE(unasked->act(seat, chosen));
      REQUIRE_FALSE(asked->act(seat, chosen));
      CHECK(unasked->events().text() == asked->events().text());
    }
    CHECK(unasked->record().actions == asked->record().actions);
    CHECK(unasked->game().state_json() == asked->game().state_json());
    CHECK(unasked->legal_json() == asked->legal_json());
  }
}
