// Found by tests/fuzz (engine targets): Match::act compared with nlohmann's `!=`, which answers
// false against a discarded value, so a failed parse was played as the first legal action.
#include <catch2/catch.hpp>
#include <limits>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

TEST_CASE("R4: only a value equal to a legal action is played", "[core][match][fuzz]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Record head;
    head.game = g->id;
    head.players = g->default_players;
    head.seed = seed_from_text("refusal");
    Problems problems;
    auto m = Match::start(head, problems);
    REQUIRE(m);
    Seat seat = m->game().pending().seat;
    Json state = m->game().state_json();

    SECTION("a discarded value (a failed parse) is refused") {
      Json discarded = Json::parse("{", nullptr, false);
      REQUIRE(discarded.is_discarded());
      auto no = m->act(seat, discarded);
      REQUIRE(no);
      CHECK(no->code == RefusalCode::illegal_action);
      CHECK(m->record().actions.empty());
      CHECK(m->game().state_json() == state);
    }
    SECTION("NaN is refused") {
      auto no = m->act(seat, Json(std::numeric_limits<double>::quiet_NaN()));
      REQUIRE(no);
      CHECK(no->code == RefusalCode::illegal_action);
      CHECK(m->game().state_json() == state);
    }
  }
}
