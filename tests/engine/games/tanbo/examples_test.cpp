// The worked examples of the rules text ("The five actions of phase 3", restated in
// docs/rules/tanbo.md), each as an exact state-to-state test: the turn that performs the action,
// then the opponent's turn begun.
#include "support.hpp"

using namespace tanbo_server::engine::games::tanbo;
using namespace tanbo_server::engine::games::tanbo::test;

TEST_CASE("Example A: 4 rice and 1 snake, 3 rice harvested, 9 points when yellow",
          "[tanbo][examples]") {
  // The Farmer goes to paddy 1, the snake last into paddy 2 (4 yellow): R = 4 > S = 1.
  const State s = position({F(1), P(), P(0, 4), P(2), P(2)}, standard_ring(0));
  TanboGame g = turn_of(0, s);
  play(g, {sow(Farmer), sow(Snake)});
  REQUIRE(g.pending().decision == "harvest");
  REQUIRE(legal(g) == ActionList{take(3, 0, 0)});
  play(g, {take(3, 0, 0)});

  State want = turn_begun(position({P(), F(), P(1, 1), P(2), P(2)}, standard_ring(0), H(3)), 1, 2);
  check_state(g, want);
  CHECK(g.state().score(0) == 9);
}

TEST_CASE("Example A: the harvest colours are the mover's choice", "[tanbo][examples]") {
  const State s = position({F(1), P(), P(0, 2, 1, 1), P(2), P(2)}, standard_ring(0));
  TanboGame g = turn_of(0, s);
  play(g, {sow(Farmer), sow(Snake)});
  // 3 of {2Y, 1B, 1R}: the distinct (y, b, r) triples.
  CHECK(legal(g) == ActionList{take(1, 1, 1), take(2, 0, 1), take(2, 1, 0)});
  play(g, {take(1, 1, 1)});
  CHECK(g.state().score(0) == 12);
  CHECK(g.state().ring[0][2] == P(1, 1));
}

TEST_CASE("Example B: 4 snakes and 1 rice, 3 rice drawn from the bag", "[tanbo][examples]") {
  const State s = position({F(1), P(), P(3, 1), P(2), P(2)}, standard_ring(0));
  TanboGame g = turn_of(0, s);
  // R5: bag 14Y 10B 5R; index 0 is yellow, then 14 of 13Y 10B 5R is black, 26 of 13Y 9B 5R red.
  ScriptedRng rng{0, 14, 26};
  play(g, {sow(Farmer), sow(Snake)}, rng);
  CHECK(rng.exhausted());
  CHECK(rng.asked == std::vector<std::uint32_t>{29, 28, 27});

  State want = position({P(), F(), P(4, 2, 1, 1), P(2), P(2)}, standard_ring(0));
  want = turn_begun(want, 1, 2);
  want.quiet_turns = 1;
  check_state(g, want);
  CHECK(want.bag == H(13, 9, 4));
}

TEST_CASE("Example C: 1 rice and no snake, the rice back to the bag and 2 snakes added",
          "[tanbo][examples]") {
  const State s = position({F(0, 1), P(), P(), P(2), P(2)}, standard_ring(0));
  REQUIRE(s.pool == 6);
  TanboGame g = turn_of(0, s);
  play(g, {sow(Farmer), sow(Yellow)});

  State want = turn_begun(position({P(), F(), P(2), P(2), P(2)}, standard_ring(0)), 1, 2);
  want.quiet_turns = 1;
  check_state(g, want);
  CHECK(want.pool == 4);
  CHECK(want.bag == H(15, 10, 5));
}

TEST_CASE("Example D: the Farmer rests one paddy on, 1 harvested rice goes back",
          "[tanbo][examples]") {
  // The Farmer goes down last, alone in paddy 2; paddy 3 holds snakes: d = 1.
  const State s = position({F(1), P(), P(), P(2), P(2)}, standard_ring(0), H(1, 1));
  TanboGame g = turn_of(0, s);
  play(g, {sow(Snake), sow(Farmer)});
  REQUIRE(g.pending().decision == "rest");
  REQUIRE(legal(g) == ActionList{give(0, 1, 0), give(1, 0, 0)});
  play(g, {give(1, 0, 0)});

  State want = turn_begun(position({P(), P(1), P(), F(2), P(2)}, standard_ring(0), H(0, 1)), 1, 2);
  check_state(g, want);
  CHECK(g.state().score(0) == 4);
}

TEST_CASE("Example E: the opponent swaps, then the mover sows P again and acts on it",
          "[tanbo][examples]") {
  // The snake last into paddy 2 (1 yellow): S = R = 1.
  const State s = position({F(1), P(), P(0, 1), P(2), P(2)}, standard_ring(0));
  TanboGame g = turn_of(0, s);
  play(g, {sow(Farmer), sow(Snake)});
  REQUIRE(g.pending().seat == 1);
  REQUIRE(g.pending().decision == "swap");
  // Paddy 0 holds the Farmer and 2 snakes, the others 2 snakes: 8 pairs with paddy 0, 6 without.
  CHECK(legal(g).size() == 14);
  play(g, {swap_action(0, Farmer, 1, Snake)});
  // P = paddy 2 picked up; the snake goes last into paddy 4 (2 snakes): C, 2 rice drawn.
  REQUIRE(g.state().hand == P(1, 1));
  REQUIRE(g.state().cursor == 3);
  ScriptedRng rng{0, 0};
  play(g, {sow(Yellow), sow(Snake)}, rng);
  CHECK(rng.asked == std::vector<std::uint32_t>{29, 28});

  State want = position({P(), F(), P(), P(2, 1), P(0, 2)}, {P(3), F(1), P(2), P(2), P(2)});
  want = turn_begun(want, 1, 2);
  want.quiet_turns = 1;
  check_state(g, want);
  CHECK(want.pool == 8);
}
