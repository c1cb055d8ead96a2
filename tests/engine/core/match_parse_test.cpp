// Match::act reads an action back into its code (Game::parse_action) and compares that one
// action's JSON with what was sent. The list-wide comparison it replaced accepted exactly the
// values equal (as nlohmann compares) to a legal action: so must this.
#include <algorithm>
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

namespace {

// The same value with every integer written as a float: 3 and 3.0 compare equal.
Json as_floats(const Json& j) {
  if (j.is_number_integer() || j.is_number_unsigned()) return j.get<double>();
  if (j.is_array()) {
    Json out = Json::array();
    for (const auto& v : j) out.push_back(as_floats(v));
    return out;
  }
  if (j.is_object()) {
    Json out = Json::object();
    for (auto it = j.begin(); it != j.end(); ++it) out[it.key()] = as_floats(it.value());
    return out;
  }
  return j;
}

// Options that make games short and varied enough to reach every decision kind.
std::vector<Json> option_sets(const GameInfo& g) {
  if (g.id == "steere-tanbo") return {Json::object(), {{"size", "5x7"}}};
  if (g.id == "tsoro") return {Json::object(), {{"columns", 6}}};
  if (g.id == "mancala-simple") return {Json::object(), {{"stones", 3}}};
  return {Json::object(), {{"stall_rounds", 1}}};
}

std::unique_ptr<Match> start(const GameInfo& g, int players, const Json& options,
                             const std::string& seed) {
  Record head;
  head.game = g.id;
  head.players = players;
  head.options = options;
  head.seed = seed_from_text(seed);
  Problems problems;
  return Match::start(head, problems);
}

// Plays m out with random legal actions; at every step each legal action reads back to its code,
// and the chosen one is sent with a member too many (refused), then with floats (accepted).
void play_reading_back(Match& m, FastRng& pick) {
  for (int step = 0; step < 400 && m.game().status() != Status::finished; ++step) {
    ActionList legal;
    m.game().legal_actions(legal);
    for (Action a : legal) {
      const Json j = m.game().action_json(a);
      CAPTURE(j.dump());
      REQUIRE(m.game().parse_action(j) == a);
      REQUIRE(m.game().parse_action(as_floats(j)) == a);
    }
    const Seat seat = m.game().pending().seat;
    const Json chosen = m.legal_action(pick.below(std::uint32_t(m.legal_count())));
    CAPTURE(chosen.dump());
    Json extra = chosen;
    extra["by"] = "me";
    REQUIRE(m.act(seat, extra));
    // Written with floats, it is the action, and the record keeps the engine's own JSON.
    REQUIRE_FALSE(m.act(seat, as_floats(chosen)));
    CHECK(m.record().actions.back().action == chosen);
    CHECK(m.record().actions.back().action.dump() == chosen.dump());
  }
}

}  // namespace

TEST_CASE("Every legal action reads back to its own code", "[core][match]") {
  for (const GameInfo* g : all_games())
    for (const Json& options : option_sets(*g))
      for (int players = g->min_players; players <= g->max_players; ++players)
        for (int game = 0; game < 3; ++game) {
          CAPTURE(g->id, options.dump(), players, game);
          auto m = start(*g, players, options, "parse " + std::to_string(game));
          REQUIRE(m);
          FastRng pick(std::uint64_t(game) * 7919 + std::uint64_t(players));
          play_reading_back(*m, pick);
        }
}

TEST_CASE("Values no action has are read as nothing", "[core][match]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    auto m = start(*g, g->default_players, Json::object(), "nothing");
    REQUIRE(m);
    for (const char* text :
         {"null", "3", "\"sow\"", "[]", "{}", "{\"hole\": -1}", "{\"hole\": 1.5}", "{\"place\": 7}",
          "{\"sow\": {\"row\": \"middle\", \"col\": 0}}", "{\"swap\": [1, 2]}",
          "{\"harvest\": {\"yellow\": 1e300}}"}) {
      CAPTURE(text);
      const Json j = Json::parse(text);
      const auto code = m->game().parse_action(j);
      ActionList legal;
      m->game().legal_actions(legal);
      if (code && std::find(legal.begin(), legal.end(), *code) != legal.end())
        CHECK_FALSE(m->game().action_json(*code) == j);
      CHECK(m->act(m->game().pending().seat, j));
    }
  }
}
