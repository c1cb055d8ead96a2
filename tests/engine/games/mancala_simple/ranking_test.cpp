// M4-M5: finishing, ranking and resigning with 2, 3 and 4 players.
#include <catch2/catch.hpp>

#include "tests/engine/games/mancala_simple/fixtures.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

using test::position;
using test::sow;

TEST_CASE("M4: with full ranking, finishers leave in order and the last one left is last",
          "[mancala][ranking]") {
  // Seat 0 finishes at once; seat 1 then finishes on its own single stone.
  MancalaSimple g(position(3, 6, {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}}));
  sow(g, 5);
  REQUIRE(g.status() == Status::playing);
  REQUIRE(g.pending().seat == 1);
  Events written;
  sow(g, 5, &written);
  const Json events = written.json();

  SECTION("the finishers take places 1 and 2, the last one left place 3") {
    REQUIRE(g.status() == Status::finished);
    CHECK(g.result() == Result{{1, 2, 3}, "finished"});
    CHECK(g.state().placed[2] == Placed::last_left);
  }
  SECTION("the events give each place as it is decided") {
    CHECK(events == R"([
      {"type": "sow", "seat": 1, "hole": 5, "stones": 1, "pits": [{"seat": 1, "hole": "store"}]},
      {"type": "place", "seat": 1, "place": 2, "by": "finished"},
      {"type": "place", "seat": 2, "place": 3, "by": "last_left"}])"_json);
  }
  SECTION("no invariant is broken") { CHECK(g.invariant_violation().empty()); }
}

TEST_CASE("M4: after a finisher leaves, the circuit skips their holes and store",
          "[mancala][ranking]") {
  MancalaSimple g(position(4, 4, {{0, 0, 0, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 0, 9}}));
  sow(g, 3);  // seat 0 finishes with its last stone in its store: no extra move
  REQUIRE(g.state().place[0] == 1);
  REQUIRE(g.pending().seat == 1);
  const State left = g.state();

  SECTION("the turn goes round the seats still in the circuit") {
    sow(g, 0);
    CHECK(g.pending().seat == 2);
    sow(g, 0);
    CHECK(g.pending().seat == 3);
    sow(g, 0);
    CHECK(g.pending().seat == 1);
  }
  SECTION("a sowing from the last seat goes on into seat 1's holes, not seat 0's") {
    sow(g, 1);
    sow(g, 1);
    REQUIRE(g.pending().seat == 3);
    sow(g, 3);  // 9 stones: seat 3's store, seat 1's 4 holes and store, seat 2's first 3 holes
    const State& s = g.state();
    CHECK(s.hole(1, 0) == left.hole(1, 0) + 1);
    CHECK(s.store(1) == left.store(1) + 1);
    CHECK(s.hole(2, 2) == left.hole(2, 2) + 2);  // one from seat 2's own sowing
    CHECK(s.hole(2, 3) == left.hole(2, 3));
    for (int h = 0; h < 4; ++h) CHECK(s.hole(0, h) == 0);
    CHECK(s.store(0) == left.store(0));
  }
  SECTION("a lap counts only the pits still in the circuit") {
    // 3 seats of 4 holes and a store: 15 pits, so 15 stones come back to the origin.
    State s = g.state();
    s.pits[s.pit(1, 0)] = 15;
    s.pits[s.store_pit(1)] = 0;
    s.pits[s.store_pit(0)] = std::uint8_t(s.total_stones() - 15 - 3 - 4 - 11);
    MancalaSimple h(s);
    REQUIRE(h.invariant_violation().empty());
    sow(h, 0);
    CHECK(h.state().hole(1, 0) == 1);
    CHECK(h.state().store(0) == s.store(0));
    CHECK(h.pending().seat == 2);
  }
}

TEST_CASE("M4: with full ranking off, the first finisher ends the game, the rest by fewest stones",
          "[mancala][ranking]") {
  auto finish_first = [](std::initializer_list<int> b, std::initializer_list<int> c,
                         std::initializer_list<int> d) {
    MancalaSimple g(position(4, 4, {{0, 0, 0, 2}, b, c, d}, 0, false));
    sow(g, 3);
    return g;
  };

  SECTION("distinct counts give distinct places") {
    MancalaSimple g = finish_first({5, 0, 0, 0}, {1, 2, 0, 0}, {0, 0, 7, 0});
    REQUIRE(g.status() == Status::finished);
    // seat 0's sowing put one stone in seat 1's first hole: 6, 3, 7 left.
    CHECK(g.result() == Result{{1, 3, 2, 4}, "finished"});
  }
  SECTION("equal counts share a place: 1, 2, 2, 4") {
    MancalaSimple g = finish_first({2, 0, 0, 0}, {1, 2, 0, 0}, {0, 0, 7, 0});
    CHECK(g.result() == Result{{1, 2, 2, 4}, "finished"});
    CHECK(g.invariant_violation().empty());
  }
  SECTION("all equal: 1, 2, 2, 2") {
    MancalaSimple g = finish_first({2, 0, 0, 0}, {3, 0, 0, 0}, {0, 3, 0, 0});
    CHECK(g.result() == Result{{1, 2, 2, 2}, "finished"});
  }
  SECTION("the events tell how each place was decided") {
    MancalaSimple g(position(3, 4, {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 0, 0, 3}}, 0, false));
    Events written;
    sow(g, 3, &written);
    const Json events = written.json();
    CHECK(events == R"([
      {"type": "sow", "seat": 0, "hole": 3, "stones": 1, "pits": [{"seat": 0, "hole": "store"}]},
      {"type": "place", "seat": 0, "place": 1, "by": "finished"},
      {"type": "place", "seat": 1, "place": 2, "by": "stones_left", "stones_left": 1},
      {"type": "place", "seat": 2, "place": 3, "by": "stones_left", "stones_left": 3}])"_json);
  }
  SECTION("with full ranking on, the same finish lets the others play on") {
    MancalaSimple g(position(4, 4, {{0, 0, 0, 2}, {5, 0, 0, 0}, {1, 2, 0, 0}, {0, 0, 7, 0}}));
    sow(g, 3);
    CHECK(g.status() == Status::playing);
    CHECK(g.pending().seat == 1);
  }
}

TEST_CASE("M4: with 2 players, full ranking changes nothing", "[mancala][ranking]") {
  for (bool full : {true, false}) {
    CAPTURE(full);
    MancalaSimple g(position(2, 6, {{0, 0, 0, 0, 1, 0}, {4, 4, 4, 4, 4, 4}}, 0, full));
    sow(g, 4);
    REQUIRE(g.pending().seat == 1);
    sow(g, 0);
    REQUIRE(g.pending().seat == 0);
    sow(g, 5);
    CHECK(g.result() == Result{{1, 2}, "finished"});
    CHECK(g.state().placed[1] == Placed::last_left);
  }
}

TEST_CASE("M5: a resigner takes the worst open place and the rest go on", "[mancala][resign]") {
  MancalaSimple g(setup(4, 6, 4, true, 1));

  SECTION("resignations stack from the bottom; the last one left takes first place") {
    g.resign(2, nullptr);
    CHECK(g.state().place[2] == 4);
    CHECK(g.status() == Status::playing);
    g.resign(1, nullptr);
    CHECK(g.state().place[1] == 3);
    Events written;
    g.resign(3, &written);
    const Json events = written.json();
    REQUIRE(g.status() == Status::finished);
    CHECK(g.result() == Result{{1, 3, 4, 2}, "resigned"});
    CHECK(events == R"([{"type": "place", "seat": 3, "place": 2, "by": "resigned"},
                        {"type": "place", "seat": 0, "place": 1, "by": "last_left"}])"_json);
  }
  SECTION("the mover's resignation passes the turn to the next seat still in the circuit") {
    g.resign(2, nullptr);
    g.resign(1, nullptr);
    CHECK(g.pending().seat == 3);
  }
  SECTION("another seat's resignation leaves the turn where it is") {
    g.resign(0, nullptr);
    CHECK(g.pending().seat == 1);
  }
  SECTION("a seat that has left cannot resign again") {
    g.resign(2, nullptr);
    const State once = g.state();
    Events written;
    g.resign(2, &written);
    const Json events = written.json();
    CHECK(g.state() == once);
    CHECK(events.empty());
  }
  SECTION("the resigner's stones stay in their holes, out of the circuit") {
    g.resign(2, nullptr);
    State s = g.state();
    // 12 stones: seat 1's store, seat 3's 6 holes and store, seat 0's first 4 holes.
    for (int h = 0; h < 6; ++h) s.pits[s.pit(1, h)] = h == 0 ? 1 : h == 5 ? 12 : 0;
    s.pits[s.store_pit(1)] = std::uint8_t(s.total_stones() - 3 * 24 - 13);
    MancalaSimple h(s);
    REQUIRE(h.invariant_violation().empty());
    sow(h, 5);
    for (int i = 0; i < 6; ++i) CHECK(h.state().hole(2, i) == 4);
    CHECK(h.state().hole(3, 0) == 5);
    CHECK(h.state().hole(0, 3) == 5);
    CHECK(h.state().hole(0, 4) == 4);
  }
}

TEST_CASE("M4-M5: finishers fill places from the top, resigners from the bottom",
          "[mancala][resign]") {
  MancalaSimple g(position(4, 4, {{0, 0, 0, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}, {1, 1, 1, 1}}));

  SECTION("full ranking: resign 4th, finish 1st, resign 3rd, the last one left 2nd") {
    g.resign(3, nullptr);
    sow(g, 3);
    REQUIRE(g.state().place[0] == 1);
    g.resign(1, nullptr);
    REQUIRE(g.status() == Status::finished);
    CHECK(g.result() == Result{{1, 3, 2, 4}, "resigned"});
  }
  SECTION("full ranking off: the finisher is 1st above a resigner, the rest share 2nd") {
    State s = g.state();
    s.full_ranking = false;
    MancalaSimple h(s);
    h.resign(3, nullptr);
    sow(h, 3);
    REQUIRE(h.status() == Status::finished);
    CHECK(h.result() == Result{{1, 2, 2, 4}, "finished"});
  }
  SECTION("with 2 players a resignation ends the game") {
    MancalaSimple two(setup(2, 7, 3, true, 0));
    two.resign(0, nullptr);
    CHECK(two.result() == Result{{2, 1}, "resigned"});
    CHECK(two.pending().seat == kNoSeat);
  }
}

}  // namespace
}  // namespace tanbo_server::engine::games::mancala_simple
