// One TEST_CASE per ruling T1-T9 of docs/rules/tanbo.md, one SECTION per consequence.
#include <algorithm>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "support.hpp"

using namespace tanbo_server::engine::games::tanbo;
using namespace tanbo_server::engine::games::tanbo::test;
using tanbo_server::engine::Status;

namespace {

const Json O = Json::object();  // an empty paddy in a set-up

int count_events(const Json& ev, const std::string& type) {
  return int(std::count_if(ev.begin(), ev.end(), [&](const Json& e) { return e["type"] == type; }));
}
const Json* find_event(const Json& ev, const std::string& type) {
  for (const Json& e : ev)
    if (e["type"] == type) return &e;
  return nullptr;
}

// The opponent's whole ring in one paddy: no swap exists (T4 E), so replays need no decision.
Ring lone_ring(int snakes = 2) { return {F(snakes), P(), P(), P(), P()}; }

// T5/T7: E at paddy 2, the replay's A harvests 3 red at paddy 4, S = R there gives E again, and
// the second replay's A harvests 2 black at paddy 1: 23 points in one turn.
State cascade(Rice opponent_harvest) {
  return position({F(1), P(1, 0, 2), P(0, 1), P(), P(1, 0, 0, 3)}, lone_ring(), {},
                  opponent_harvest);
}

}  // namespace

TEST_CASE("T1: the standard set-up, Farmer placement seat 0 then seat 1, data set-ups",
          "[tanbo][rules][T1]") {
  tanbo_server::engine::Drbg rng(tanbo_server::engine::seed_from_text("t1"));
  SECTION("standard: 2 snakes a paddy, 30 rice in the bag, empty pool, no Farmer yet") {
    auto created = tanbo_server::engine::create_game("tanbo", {{"first", 1}}, nullptr, 2, rng);
    REQUIRE(created.game);
    auto& g = static_cast<TanboGame&>(*created.game);
    const State& s = g.state();
    for (const Ring& ring : s.ring)
      for (const Tokens& p : ring) CHECK(p == P(2));
    CHECK(s.bag == H(15, 10, 5));
    CHECK(s.pool == 0);
    CHECK(g.status() == Status::setup);
    CHECK(g.pending().seat == 0);
    CHECK(g.pending().decision == "place_farmer");
    CHECK(legal(g).size() == 5);
  }
  SECTION("seat 0 places first, then seat 1, then the first seat (R6) begins") {
    auto created = tanbo_server::engine::create_game("tanbo", {{"first", 1}}, nullptr, 2, rng);
    auto& g = static_cast<TanboGame&>(*created.game);
    play(g, {place_farmer_action(2)});
    CHECK(g.state().ring[0][2] == F(2));
    CHECK(g.pending().seat == 1);
    CHECK(g.status() == Status::setup);
    play(g, {place_farmer_action(4)});
    CHECK(g.status() == Status::playing);
    CHECK(g.state().mover == 1);
    CHECK(g.state().hand == F(2));  // T2 at once: ring 1's paddy 4 picked up
    CHECK(g.state().ring[1][4] == P());
  }
  SECTION("a set-up that places both Farmers asks nothing") {
    const Json setup = {{"rings", Json::array({Json::array({{{"snakes", 2}, {"farmer", true}},
                                                            {{"snakes", 2}},
                                                            {{"snakes", 2}},
                                                            {{"snakes", 2}},
                                                            {{"snakes", 2}}}),
                                               Json::array({{{"snakes", 2}},
                                                            {{"snakes", 2}},
                                                            {{"snakes", 2}, {"farmer", true}},
                                                            {{"snakes", 2}},
                                                            {{"snakes", 2}}})})}};
    auto created = tanbo_server::engine::create_game("tanbo", {{"first", 0}}, setup, 2, rng);
    REQUIRE(created.game);
    CHECK(created.game->status() == Status::playing);
    CHECK(created.game->pending().decision == "sow");
  }
  SECTION("a set-up with one Farmer placed asks only the other seat") {
    const Json setup = {{"rings", Json::array({Json::array({O, O, O, O, O}),
                                               Json::array({{{"farmer", true}}, O, O, O, O})})}};
    auto created = tanbo_server::engine::create_game("tanbo", {{"first", 0}}, setup, 2, rng);
    REQUIRE(created.game);
    CHECK(created.game->pending().seat == 0);
    CHECK(created.game->pending().decision == "place_farmer");
  }
  SECTION("the bag and the pool hold whatever the set-up does not place") {
    const Json setup = {
        {"rings",
         Json::array({Json::array({{{"snakes", 5}, {"yellow", 3}, {"red", 5}}, O, O, O, O}),
                      Json::array({{{"black", 10}}, {{"snakes", 1}}, O, O, O})})}};
    const State s = setup_from(setup);
    CHECK(s.pool == 14);
    CHECK(s.bag == H(12, 0, 0));
    CHECK(s.ring[0][0] == P(5, 3, 0, 5));
  }
  SECTION("a set-up beyond the component counts is refused, naming the field") {
    auto ring_of = [](Json paddy) {
      return Json::array({paddy, Json::object(), Json::object(), Json::object(), Json::object()});
    };
    auto two = [&](Json a, Json b) { return Json{{"rings", Json::array({a, b})}}; };
    const Json empty = ring_of(Json::object());
    auto [setup, field] = GENERATE_COPY(table<Json, std::string>({
        {two(ring_of({{"snakes", 12}}), ring_of({{"snakes", 9}})), "setup.snakes"},
        {two(ring_of({{"red", 3}}), ring_of({{"red", 3}})), "setup.red"},
        {two(ring_of({{"yellow", 16}}), empty), "setup.rings[0][0].yellow"},
        {two(empty, ring_of({{"black", -1}})), "setup.rings[1][0].black"},
        {two(empty, ring_of({{"snakes", "2"}})), "setup.rings[1][0].snakes"},
        {two(empty, ring_of({{"farmer", 1}})), "setup.rings[1][0].farmer"},
        {two(empty, ring_of({{"frogs", 1}})), "setup.rings[1][0].frogs"},
        {Json{{"rings", Json::array({Json::array({{{"farmer", true}}, {{"farmer", true}}, O, O, O}),
                                     empty})}},
         "setup.rings[0]"},
        {Json{{"rings", Json::array({empty})}}, "setup.rings"},
        {Json{{"rings", Json::array({Json::array({O, O}), empty})}}, "setup.rings[0]"},
        {Json{{"rings", Json::array({empty, Json::array({1, O, O, O, O})})}}, "setup.rings[1][0]"},
        {Json{{"season", "housaku"}}, "setup.season"},
        {Json::object(), "setup.rings"},
        {Json("standard"), "setup"},
    }));
    CAPTURE(setup.dump());
    auto created = tanbo_server::engine::create_game("tanbo", nullptr, setup, 2, rng);
    CHECK_FALSE(created.game);
    REQUIRE(created.problems.size() == 1);
    CHECK(created.problems[0].field == field);
    CHECK_FALSE(created.problems[0].message.empty());
  }
}

TEST_CASE("T2: preparation takes every token, the Farmer included, from the Farmer's paddy",
          "[tanbo][rules][T2]") {
  const State s = position({P(2), P(2), F(1, 2, 0, 1), P(2), P(2)}, standard_ring(3));
  const TanboGame g = turn_of(0, s);
  CHECK(g.state().hand == F(1, 2, 0, 1));
  CHECK(g.state().ring[0][2] == P());
  CHECK(g.state().cursor == 3);
  CHECK(g.state().ring[1] == standard_ring(3));
}

TEST_CASE(
    "T3: one token per paddy, clockwise from the next paddy, wrapping, the emptied paddy "
    "not skipped, one decision per token",
    "[tanbo][rules][T3]") {
  // 7 tokens from paddy 3: paddies 4, 0, 1, 2, 3 (the emptied one), 4, 0.
  const State s = position({P(), P(), P(), F(5, 1), P(3)}, standard_ring(0));
  TanboGame g = turn_of(0, s);
  SECTION("the legal list names each kind in hand once") {
    CHECK(legal(g) == ActionList{sow(Snake), sow(Yellow), sow(Farmer)});
  }
  SECTION("the tokens go round, and the emptied paddy receives the fifth") {
    play(g, {sow(Snake), sow(Snake), sow(Snake), sow(Snake), sow(Yellow)});
    CHECK(g.state().ring[0][3] == P(0, 1));
    CHECK(g.state().cursor == 4);
    CHECK(legal(g) == ActionList{sow(Snake), sow(Farmer)});
    play(g, {sow(Farmer)});
    CHECK(g.state().ring[0][4] == F(4));
    CHECK(legal(g) == ActionList{sow(Snake)});  // one token left: still a decision (R4 by Match)
    ScriptedRng rng{0, 0};
    play(g, {sow(Snake)}, rng);
    // The last token went to paddy 0 (2 snakes there, no rice): C, 2 rice drawn.
    CHECK(g.state().last == 0);
  }
  SECTION("the hand is public") {
    CHECK(g.state_json()["hand"] ==
          Json{{"snakes", 5}, {"yellow", 1}, {"black", 0}, {"red", 0}, {"farmer", true}});
  }
}

TEST_CASE("T4: the counts of the last paddy name the action, the Farmer never counted",
          "[tanbo][rules][T4]") {
  auto [paddy, letter] = GENERATE(table<Tokens, Letter>({
      {P(1, 2), Letter::A},
      {P(1, 0, 1, 3), Letter::A},
      {P(3, 1), Letter::B},
      {P(0, 1), Letter::C},
      {P(2), Letter::C},
      {F(0, 0, 0, 1), Letter::C},
      {F(), Letter::D},
      {P(1, 1), Letter::E},
      {F(2, 0, 1, 1), Letter::E},
  }));
  CAPTURE(tokens_json(paddy).dump());
  CHECK(letter_of(paddy) == letter);
}

TEST_CASE("T4: shortages of the bag and the snake pool", "[tanbo][rules][T4]") {
  SECTION("B draws only what the bag holds") {
    const State s =
        position({F(1), P(), P(3, 1), P(2), P(2)}, {F(2, 13, 10, 5), P(), P(), P(), P()});
    REQUIRE(s.bag == H(1, 0, 0));
    TanboGame g = turn_of(0, s);
    ScriptedRng rng{0};
    Events written;
    play(g, {sow(Farmer), sow(Snake)}, rng, &written);
    const Json ev = written.json();
    CHECK(rng.asked == std::vector<std::uint32_t>{1});
    CHECK(g.state().ring[0][2] == P(4, 2));
    CHECK(g.state().bag == H());
    const Json* short_ = find_event(ev, "bag_short");
    REQUIRE(short_);
    CHECK((*short_)["drawn"] == 1);
  }
  SECTION("C adds only the snakes the pool holds") {
    const State s = position({F(0, 1), P(), P(), P(2), P(2)}, {F(2), P(2), P(2), P(2), P(7)});
    REQUIRE(s.pool == 1);
    TanboGame g = turn_of(0, s);
    play(g, {sow(Farmer), sow(Yellow)});
    CHECK(g.state().ring[0][2] == P(1));
    CHECK(g.state().pool == 0);
  }
  SECTION("C puts the snakes in the pool, then draws 2 rice, none from an empty bag") {
    const State s = position({F(1), P(), P(), P(2), P(2)}, {F(2, 15, 10, 5), P(), P(), P(), P()});
    REQUIRE(s.bag == H());
    TanboGame g = turn_of(0, s);
    const int pool = s.pool;
    play(g, {sow(Farmer), sow(Snake)});
    CHECK(g.state().ring[0][2] == P());
    CHECK(g.state().pool == pool + 1);
  }
  SECTION("C keeps the Farmer in the paddy") {
    // The Farmer goes down first, into the paddy the snake later ends in (it wraps round).
    const State s = position({F(5), P(2), P(2), P(2), P(2)}, lone_ring());
    TanboGame g = turn_of(0, s);
    ScriptedRng rng{0, 0};
    play(g, {sow(Farmer), sow(Snake), sow(Snake), sow(Snake), sow(Snake), sow(Snake)}, rng);
    // Paddy 1 got the Farmer, then the 6th token: F + 3 snakes, no rice: C.
    CHECK(g.state().ring[0][1] == F(0, 2));
  }
}

TEST_CASE("T4: D moves the Farmer to the next paddy with a snake or rice, d rice go back",
          "[tanbo][rules][T4]") {
  SECTION("d counts the paddies passed; fewer harvested rice than d: all go back") {
    const State s = position({F(1), P(), P(), P(), P(2)}, lone_ring(), H(1));
    TanboGame g = turn_of(0, s);
    Events written;
    ScriptedRng rng;
    play(g, {sow(Snake), sow(Farmer)}, rng, &written);
    const Json ev = written.json();
    const Json* rest = find_event(ev, "rest");
    REQUIRE(rest);
    CHECK((*rest)["steps"] == 2);
    CHECK((*rest)["lose"] == 1);
    CHECK(legal(g) == ActionList{give(1, 0, 0)});
    play(g, {give(1, 0, 0)});
    CHECK(g.state().ring[0][4] == F(2));
    CHECK(g.state().harvest[0] == H());
  }
  SECTION("the Farmer moves even when there is nothing to return") {
    const State s = position({F(1), P(), P(), P(), P(2)}, lone_ring());
    TanboGame g = turn_of(0, s);
    play(g, {sow(Snake), sow(Farmer)});
    CHECK(g.state().ring[0][4] == F(2));
    CHECK(g.state().mover == 1);
  }
  SECTION("the Farmer alone with no target stays, nothing lost") {
    const State s = position({F(), P(), P(), P(), P()}, standard_ring(0), H(2));
    TanboGame g = turn_of(0, s);
    play(g, {sow(Farmer)});
    CHECK(g.state().ring[0][1] == F());
    CHECK(g.state().harvest[0] == H(2));
    CHECK(g.state().mover == 1);
    CHECK(g.state().quiet_turns == 1);  // T8: no score change
  }
  SECTION("the rest colours are the mover's choice") {
    const State s = position({F(1), P(), P(), P(), P(2)}, lone_ring(), H(2, 1, 1));
    TanboGame g = turn_of(0, s);
    play(g, {sow(Snake), sow(Farmer)});
    CHECK(legal(g) == ActionList{give(0, 1, 1), give(1, 0, 1), give(1, 1, 0), give(2, 0, 0)});
  }
}

TEST_CASE("T4: E, the opponent swaps two of their tokens in different paddies first",
          "[tanbo][rules][T4]") {
  const State s = position({F(1), P(), P(0, 1), P(2), P(2)}, standard_ring(0));
  SECTION("every distinct swap is listed, no-op swaps included by default") {
    TanboGame g = turn_of(0, s);
    play(g, {sow(Farmer), sow(Snake)});
    REQUIRE(g.pending().seat == 1);
    CHECK(legal(g).size() == 14);
    CHECK(is_legal(g, swap_action(1, Snake, 2, Snake)));
  }
  SECTION("forbid_noop_swap lists only swaps that change something") {
    Options o;
    o.forbid_noop_swap = true;
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Farmer), sow(Snake)});
    CHECK(legal(g) == ActionList{swap_action(0, Farmer, 1, Snake), swap_action(0, Farmer, 2, Snake),
                                 swap_action(0, Farmer, 3, Snake),
                                 swap_action(0, Farmer, 4, Snake)});
  }
  SECTION("the swap exchanges the two tokens, the Farmer included") {
    TanboGame g = turn_of(0, s);
    play(g, {sow(Farmer), sow(Snake), swap_action(0, Farmer, 3, Snake)});
    CHECK(g.state().ring[1] == Ring{P(3), P(2), P(2), F(1), P(2)});
    CHECK(g.pending().seat == 0);
  }
  SECTION("no swap exists when the opponent's tokens lie in one paddy: straight to the replay") {
    const State lone = position({F(1), P(), P(0, 1), P(2), P(2)}, lone_ring(5));
    TanboGame g = turn_of(0, lone);
    Events written;
    ScriptedRng rng;
    play(g, {sow(Farmer), sow(Snake)}, rng, &written);
    const Json ev = written.json();
    CHECK(count_events(ev, "no_swap") == 1);
    CHECK(g.pending().seat == 0);
    CHECK(g.pending().decision == "sow");
    CHECK(g.state().hand == P(1, 1));
  }
}

TEST_CASE("T5: the replay action phase, its cascade, its option and its guard",
          "[tanbo][rules][T5]") {
  SECTION("after A, P holds S = R and the phase goes on into E") {
    TanboGame g = turn_of(0, cascade(H(1, 2)));
    play(g, {sow(Farmer), sow(Snake), sow(Snake), sow(Yellow)});
    REQUIRE(legal(g) == ActionList{take(0, 0, 3), take(1, 0, 2)});
    Events written;
    ScriptedRng rng;
    play(g, {take(0, 0, 3)}, rng, &written);
    const Json ev = written.json();
    CHECK(count_events(ev, "replay") == 1);
    CHECK(g.state().replays == 2);
    CHECK(g.state().hand == P(1, 1));  // paddy 4 picked up again
    CHECK(g.state().mover == 0);
  }
  SECTION("with replay_cascade off a replay phase applies one action") {
    Options o;
    o.replay_cascade = false;
    TanboGame g = turn_of(0, cascade(H(1, 2)), o);
    play(g, {sow(Farmer), sow(Snake), sow(Snake), sow(Yellow), take(0, 0, 3)});
    CHECK(g.state().mover == 1);
    CHECK(g.state().ring[0][4] == P(1, 1));
    CHECK(g.state().score(0) == 15);
  }
  SECTION("a letter already applied in this replay phase ends it (B with a short bag)") {
    // E at paddy 2; the replay ends at paddy 4 with 3 snakes and 1 rice: B wants 2, the bag has 1.
    const State s =
        position({F(1), P(), P(0, 1), P(), P(2, 1)}, {F(10, 12, 10, 5), P(), P(), P(), P()});
    REQUIRE(s.bag == H(1));
    TanboGame g = turn_of(0, s);
    Events written;
    ScriptedRng rng{0};
    play(g, {sow(Farmer), sow(Snake), sow(Yellow), sow(Snake)}, rng, &written);
    const Json ev = written.json();
    const Json* end = find_event(ev, "replay_end");
    REQUIRE(end);
    CHECK((*end)["letter"] == "B");
    CHECK(g.state().ring[0][4] == P(3, 2));
    CHECK(g.state().mover == 1);
  }
  SECTION("the guard: the mover's ring and P as at an earlier E end the turn, no swap") {
    // The hand {snake, yellow, Farmer} goes round the ring: 5 replays bring back the first E.
    const State s = position({P(1, 1), P(0, 1), F(1, 1), P(0, 1), P()}, standard_ring(0));
    TanboGame g = turn_of(0, s);
    Events written;
    ScriptedRng rng;
    play(g, {sow(Snake), sow(Yellow), sow(Farmer)}, rng, &written);
    REQUIRE(g.state().last == 0);
    const Ring first_e = g.state().ring[0];
    CHECK(first_e == Ring{F(1, 1), P(0, 1), P(), P(1, 1), P(0, 1)});
    for (int replay = 1; replay <= 5; ++replay) {
      INFO("replay " << replay);
      REQUIRE(g.pending().decision == "swap");
      play(g, {swap_action(1, Snake, 2, Snake)}, rng, &written);
      play(g, {sow(Snake), sow(Yellow), sow(Farmer)}, rng, &written);
    }
    const Json ev = written.json();
    CHECK(count_events(ev, "replay") == 5);
    const Json* guard = find_event(ev, "replay_guard");
    REQUIRE(guard);
    CHECK((*guard)["reason"] == "repeated");
    CHECK(g.state().ring[0] == first_e);
    CHECK(g.state().mover == 1);  // no sixth swap: the turn ended
  }
  SECTION("the guard: after 64 replays this turn, E ends the turn") {
    State s = position({P(), F(), P(0, 1), P(2), P(2)}, lone_ring());
    s.phase = Phase::sow;
    s.turn = 1;
    s.hand = P(1);
    --s.pool;
    s.cursor = 2;
    s.last = 1;
    s.in_replay = true;
    for (int i = 0; i < kMaxReplays; ++i) s.seen[i] = GuardKey{std::uint64_t(i) + 1, 0};
    SECTION("64 made: no replay") {
      s.replays = 64;
      TanboGame g(s, {});
      Events written;
      ScriptedRng rng;
      play(g, {sow(Snake)}, rng, &written);
      const Json ev = written.json();
      const Json* guard = find_event(ev, "replay_guard");
      REQUIRE(guard);
      CHECK((*guard)["reason"] == "limit");
      CHECK(g.state().mover == 1);
    }
    SECTION("63 made: one more") {
      s.replays = 63;
      s.seen[63] = {};
      TanboGame g(s, {});
      play(g, {sow(Snake)});
      CHECK(g.state().replays == 64);
      CHECK(g.state().mover == 0);
      CHECK(g.state().hand == P(1, 1));
    }
  }
}

TEST_CASE("T6: the mover's paddies over 10 are trimmed, one decision each in paddy order",
          "[tanbo][rules][T6]") {
  // The Farmer rests from paddy 3 to paddy 4; paddies 0 (12 tokens) and 4 (11 + Farmer) are over.
  const State s =
      position({P(8, 2, 1, 1), F(1), P(), P(), P(6, 3, 2)}, {F(1), P(0, 9, 2), P(1), P(1), P(1)});
  SECTION("paddy 0 first, every distinct (snakes, yellow, black, red) listed") {
    TanboGame g = turn_of(0, s);
    play(g, {sow(Snake), sow(Farmer)});
    REQUIRE(g.pending().decision == "trim");
    CHECK(g.state().trim_paddy == 0);
    CHECK(legal(g).size() == 8);
    CHECK(is_legal(g, cut(0, 0, 1, 0, 1)));
    CHECK_FALSE(is_legal(g, cut(0, 0, 0, 2, 0)));  // one black only
    play(g, {cut(0, 2, 0, 0, 0)});
    CHECK(g.state().ring[0][0] == P(6, 2, 1, 1));
    REQUIRE(g.state().trim_paddy == 4);
    CHECK(legal(g) == ActionList{cut(4, 0, 0, 1, 0), cut(4, 0, 1, 0, 0), cut(4, 1, 0, 0, 0)});
    const int pool = g.state().pool;
    play(g, {cut(4, 0, 0, 1, 0)});
    CHECK(g.state().ring[0][4] == F(6, 3, 1));  // the Farmer never goes
    CHECK(g.state().pool == pool);
    CHECK(g.state().mover == 1);
    CHECK(g.state().ring[1][1] == P(0, 9, 2));  // the opponent's paddies are not trimmed
  }
  SECTION("snakes go to the pool, rice to the bag") {
    TanboGame g = turn_of(0, s);
    play(g, {sow(Snake), sow(Farmer)});
    const State before = g.state();
    play(g, {cut(0, 1, 1, 0, 0)});
    CHECK(g.state().pool == before.pool + 1);
    CHECK(g.state().bag.n[0] == before.bag.n[0] + 1);
  }
  SECTION("farmer_counts_toward_limit: the Farmer counts, but never goes") {
    Options o;
    o.farmer_counts_toward_limit = true;
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Snake), sow(Farmer), cut(0, 2, 0, 0, 0)});
    REQUIRE(g.state().trim_paddy == 4);
    CHECK(g.state().to_move == 2);
    play(g, {cut(4, 2, 0, 0, 0)});
    CHECK(g.state().ring[0][4] == F(4, 3, 2));
  }
}

TEST_CASE("T7: victory after every score change, at once, even mid-turn", "[tanbo][rules][T7]") {
  SECTION("25 points ends the game at once, before the end phase") {
    // Harvest 1 red at paddy 2 (20 + 5); paddy 4 stays over-full: no trimming.
    const State s = position({F(1), P(), P(0, 0, 0, 2), P(), P(11)}, lone_ring(), H(0, 5));
    TanboGame g = turn_of(0, s);
    play(g, {sow(Farmer), sow(Snake)});
    REQUIRE(legal(g) == ActionList{take(0, 0, 1)});
    Events written;
    ScriptedRng rng;
    play(g, {take(0, 0, 1)}, rng, &written);
    const Json ev = written.json();
    CHECK(g.status() == Status::finished);
    CHECK(g.result().places == std::vector<int>{1, 2});
    CHECK(g.result().reason == "25_points");  // lead 25 holds too: 25_points comes first
    CHECK(g.state().ring[0][4] == P(11));
    CHECK(count_events(ev, "victory") == 1);
  }
  SECTION("the opponent wins on the mover's D loss (lead_20)") {
    const State s = position({F(1), P(), P(), P(2), P()}, lone_ring(), H(2), H(8));
    REQUIRE(s.score(1) - s.score(0) == 18);
    TanboGame g = turn_of(0, s);
    play(g, {sow(Snake), sow(Farmer), give(1, 0, 0)});
    CHECK(g.status() == Status::finished);
    CHECK(g.result().places == std::vector<int>{2, 1});
    CHECK(g.result().reason == "lead_20");
  }
  SECTION("20 points in one turn through a replay cascade") {
    TanboGame g = turn_of(0, cascade(H(1, 2)));
    play(g, {sow(Farmer), sow(Snake), sow(Snake), sow(Yellow), take(0, 0, 3)});
    REQUIRE(g.status() == Status::playing);
    CHECK(g.state().gained == 15);
    play(g, {sow(Snake), sow(Yellow)});
    REQUIRE(legal(g) == ActionList{take(0, 2, 0), take(1, 1, 0)});
    play(g, {take(0, 2, 0)});
    CHECK(g.state().score(0) == 23);
    CHECK(g.status() == Status::finished);
    CHECK(g.result().places == std::vector<int>{1, 2});
    CHECK(g.result().reason == "20_in_turn");
  }
  SECTION("lead_20 is reported before 20_in_turn") {
    TanboGame g = turn_of(0, cascade(H()));
    play(g, {sow(Farmer), sow(Snake), sow(Snake), sow(Yellow), take(0, 0, 3)});
    play(g, {sow(Snake), sow(Yellow), take(0, 2, 0)});
    CHECK(g.result().reason == "lead_20");
  }
}

TEST_CASE("T8: 2 x stall_rounds turns without a score change end the game", "[tanbo][rules][T8]") {
  Options o;
  o.stall_rounds = 1;
  SECTION("higher score wins, reason stalled; a Farmer with no target changes nothing") {
    const State s = position({F(), P(), P(), P(), P()}, {F(), P(), P(), P(), P()}, H(1));
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Farmer)});
    CHECK(g.status() == Status::playing);
    CHECK(g.state().quiet_turns == 1);
    play(g, {sow(Farmer)});
    CHECK(g.status() == Status::finished);
    CHECK(g.result().reason == "stalled");
    CHECK(g.result().places == std::vector<int>{1, 2});
  }
  SECTION("equal scores draw") {
    const State s = position({F(), P(), P(), P(), P()}, {F(), P(), P(), P(), P()});
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Farmer), sow(Farmer)});
    CHECK(g.result().places == std::vector<int>{1, 1});
  }
  SECTION("a D that loses nothing is no change") {
    // Seat 0 rests one paddy on with nothing harvested; seat 1's Farmer has no target.
    const State s = position({F(), P(), P(2), P(), P()}, {F(), P(), P(), P(), P()}, {}, H(1));
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Farmer)});
    CHECK(g.state().ring[0][2] == F(2));
    play(g, {sow(Farmer)});
    CHECK(g.result().reason == "stalled");
    CHECK(g.result().places == std::vector<int>{2, 1});
  }
  SECTION("a score change starts the count again") {
    State s = position({F(1), P(), P(0, 4), P(2), P(2)}, standard_ring(0));
    s.quiet_turns = 1;
    TanboGame g = turn_of(0, s, o);
    play(g, {sow(Farmer), sow(Snake), take(3, 0, 0)});
    CHECK(g.status() == Status::playing);
    CHECK(g.state().quiet_turns == 0);
  }
}

TEST_CASE("T9: every choice is a decision of the player named, offered with its legal options",
          "[tanbo][rules][T9]") {
  using tanbo_server::engine::Match;
  tanbo_server::engine::Record head;
  head.game = "tanbo";
  head.options = {{"first", 0}};
  head.setup = {{"rings", Json::array({Json::array({{{"snakes", 1}, {"farmer", true}},
                                                    O,
                                                    {{"yellow", 1}},
                                                    {{"snakes", 2}},
                                                    {{"snakes", 2}}}),
                                       Json::array({{{"snakes", 2}, {"farmer", true}},
                                                    {{"snakes", 2}},
                                                    {{"snakes", 2}},
                                                    {{"snakes", 2}},
                                                    {{"snakes", 2}}})})}};
  tanbo_server::engine::Problems problems;
  auto match = Match::start(head, problems);
  REQUIRE(match);
  REQUIRE(match->legal_json() == Json::array({{{"sow", "snake"}}, {{"sow", "farmer"}}}));
  SECTION("the mover orders the tokens; the other seat may not") {
    auto refusal = match->act(1, {{"sow", "farmer"}});
    REQUIRE(refusal);
    CHECK(refusal->code == tanbo_server::engine::RefusalCode::not_your_turn);
  }
  SECTION("the opponent decides the swap mid-turn; the mover may not") {
    // Farmer first, then the last snake (forced, R4) makes S = R at paddy 2.
    REQUIRE_FALSE(match->act(0, {{"sow", "farmer"}}));
    CHECK(match->game().pending().seat == 1);
    CHECK(match->game().pending().decision == "swap");
    auto refusal = match->act(0, match->legal_json()[0]);
    REQUIRE(refusal);
    CHECK(refusal->code == tanbo_server::engine::RefusalCode::not_your_turn);
    const Json swap = match->legal_json()[0];
    CHECK_FALSE(match->act(1, swap));
    // R4: the forced last snake was applied at once, never logged.
    CHECK(match->record().actions ==
          std::vector<tanbo_server::engine::RecordedAction>{{0, {{"sow", "farmer"}}}, {1, swap}});
  }
}
