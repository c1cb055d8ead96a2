// M2-M3: the circuit, sowing, extra moves and finishing, starting with the published examples
// (seat A: pits 1-6, store 7; seat B: pits 8-13, store 14; pit n of A is A's hole n-1 here).
#include <catch2/catch.hpp>

#include "tests/engine/games/mancala_simple/fixtures.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

using test::legal_holes;
using test::position;
using test::sow;

TEST_CASE("M3: from pit 3 with 4 stones the stones go to 4, 5, 6, 7 and A moves again",
          "[mancala][rules]") {
  MancalaSimple g(setup(2, 6, 4, true, 0));
  Events written;
  sow(g, 2, &written);
  const Json events = written.json();
  const State& s = g.state();

  SECTION("pits 4, 5 and 6 gain a stone, store 7 gets the last, pit 3 is empty") {
    CHECK(s.hole(0, 2) == 0);
    CHECK(s.hole(0, 3) == 5);
    CHECK(s.hole(0, 4) == 5);
    CHECK(s.hole(0, 5) == 5);
    CHECK(s.store(0) == 1);
  }
  SECTION("B's side and store are untouched") {
    for (int h = 0; h < 6; ++h) CHECK(s.hole(1, h) == 4);
    CHECK(s.store(1) == 0);
  }
  SECTION("A moves again") {
    CHECK(g.pending().seat == 0);
    CHECK(legal_holes(g) == std::vector<int>{0, 1, 3, 4, 5});
  }
  SECTION("the events name the sown pits and the extra move") {
    CHECK(events == R"([
      {"type": "sow", "seat": 0, "hole": 2, "stones": 4,
       "pits": [{"seat": 0, "hole": 3}, {"seat": 0, "hole": 4}, {"seat": 0, "hole": 5},
                {"seat": 0, "hole": "store"}]},
      {"type": "extra_move", "seat": 0}])"_json);
  }
}

TEST_CASE("M2: from pit 6 with 5 stones they go to 7, 8, 9, 10, 11", "[mancala][rules]") {
  MancalaSimple g(position(2, 6, {{4, 4, 4, 4, 4, 5}, {4, 4, 4, 4, 4, 3}}));
  REQUIRE(g.invariant_violation().empty());
  const int store_before = g.state().store(0);
  sow(g, 5);
  const State& s = g.state();

  SECTION("A's store gets the first stone, B's holes 8-11 one each") {
    CHECK(s.hole(0, 5) == 0);
    CHECK(s.store(0) == store_before + 1);
    CHECK(s.hole(1, 0) == 5);
    CHECK(s.hole(1, 1) == 5);
    CHECK(s.hole(1, 2) == 5);
    CHECK(s.hole(1, 3) == 5);
    CHECK(s.hole(1, 4) == 4);
    CHECK(s.store(1) == 0);
  }
  SECTION("the last stone in a hole passes the turn to B") { CHECK(g.pending().seat == 1); }
}

TEST_CASE("M2: the circuit goes on from the last seat's store to seat 0", "[mancala][rules]") {
  MancalaSimple g(position(3, 6, {{1, 1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1}, {1, 0, 0, 0, 0, 3}}, 2));
  sow(g, 5);
  const State& s = g.state();
  CHECK(s.hole(0, 0) == 2);
  CHECK(s.hole(0, 1) == 2);
  CHECK(s.hole(0, 2) == 1);
  SECTION("and the turn follows the same direction") { CHECK(g.pending().seat == 0); }
}

TEST_CASE("M3: a lap reaches the origin hole, which is never skipped", "[mancala][rules]") {
  // Two seats of 6 holes: a circuit of 14 pits, so 13 stones fill every other pit once.
  auto from_origin = [](int stones) {
    MancalaSimple g(position(2, 6, {{1, 1, 0, 0, 0, 0}, {1, 1, 1, 1, 1, 1}}));
    State s = g.state();
    s.pits[s.pit(0, 2)] = std::uint8_t(stones);
    s.pits[s.store_pit(0)] = std::uint8_t(s.total_stones() - 8 - stones);
    return MancalaSimple(s);
  };

  SECTION("13 stones: every other pit gains one, the origin stays empty, the last is pit 2") {
    MancalaSimple g = from_origin(13);
    const State before = g.state();
    sow(g, 2);
    const State& s = g.state();
    CHECK(s.hole(0, 2) == 0);
    for (int i = 0; i < kPits; ++i)
      if (i != s.pit(0, 2) && s.seat_of(i) < 2 && i % kStride <= 6)
        CHECK(s.pits[i] == before.pits[i] + 1);
    CHECK(g.pending().seat == 1);
  }
  SECTION("14 stones: the last one lands back in the origin") {
    MancalaSimple g = from_origin(14);
    const State before = g.state();
    Events written;
    sow(g, 2, &written);
    const Json events = written.json();
    const State& s = g.state();
    CHECK(s.hole(0, 2) == 1);
    CHECK(s.store(0) == before.store(0) + 1);
    CHECK(s.store(1) == before.store(1) + 1);
    CHECK(events[0]["pits"].back() == R"({"seat": 0, "hole": 2})"_json);
    CHECK(g.pending().seat == 1);
  }
  SECTION("30 stones: two laps and two more, the origin gets one per lap") {
    MancalaSimple g = from_origin(30);
    const State before = g.state();
    sow(g, 2);
    const State& s = g.state();
    CHECK(s.hole(0, 2) == 2);
    CHECK(s.hole(0, 3) == before.hole(0, 3) + 3);
    CHECK(s.hole(0, 4) == before.hole(0, 4) + 3);
    CHECK(s.hole(0, 5) == before.hole(0, 5) + 2);
    CHECK(s.store(1) == before.store(1) + 2);
    CHECK(g.invariant_violation().empty());
  }
}

TEST_CASE("M3: extra moves chain as long as the last stone lands in a store", "[mancala][rules]") {
  MancalaSimple g(position(2, 6, {{0, 0, 0, 1, 2, 1}, {4, 4, 4, 4, 4, 4}}));

  SECTION("a chain of three extra moves, then a last stone in a hole ends the turn") {
    sow(g, 5);
    CHECK(g.pending().seat == 0);
    sow(g, 4);
    CHECK(g.pending().seat == 0);
    sow(g, 5);
    CHECK(g.pending().seat == 0);
    REQUIRE(legal_holes(g) == std::vector<int>{3});
    sow(g, 3);
    CHECK(g.pending().seat == 1);
  }
  SECTION("a last stone in another seat's store gives the mover another move too") {
    MancalaSimple h(position(2, 6, {{0, 0, 0, 0, 1, 8}, {4, 4, 4, 4, 4, 4}}));
    sow(h, 5);
    CHECK(h.state().store(1) == 1);
    CHECK(h.pending().seat == 0);
  }
}

TEST_CASE("M3: stones in a store are out of play and there are no captures", "[mancala][rules]") {
  // A's last stone lands in A's own empty hole across from B's full one: nothing is taken.
  MancalaSimple g(position(2, 6, {{1, 0, 0, 0, 0, 0}, {4, 4, 4, 4, 4, 4}}, 0));
  State s = g.state();
  s.pits[s.pit(0, 3)] = 1;
  s.pits[s.store_pit(0)] -= 1;
  g = MancalaSimple(s);
  sow(g, 0);
  for (int h = 0; h < 6; ++h) CHECK(g.state().hole(1, h) == 4);
  CHECK(g.state().hole(0, 1) == 1);
  CHECK(g.state().store(0) == s.store(0));
  CHECK(legal_holes(g).size() == 6);
}

TEST_CASE("M3: the mover whose side is empty right after sowing finishes", "[mancala][rules]") {
  SECTION("on a sowing that ends in a hole, 2 players: the game is won") {
    MancalaSimple g(position(2, 6, {{0, 0, 0, 0, 0, 3}, {4, 4, 4, 4, 4, 4}}));
    Events written;
    sow(g, 5, &written);
    const Json events = written.json();
    REQUIRE(g.status() == Status::finished);
    CHECK(g.result() == Result{{1, 2}, "finished"});
    CHECK(g.state().hole(1, 1) == 5);
    CHECK(events.back() == R"({"type": "place", "seat": 1, "place": 2, "by": "last_left"})"_json);
    CHECK(events[events.size() - 2] ==
          R"({"type": "place", "seat": 0, "place": 1, "by": "finished"})"_json);
  }
  SECTION("a lap that puts stones back into the mover's side does not finish") {
    MancalaSimple g(position(2, 6, {{0, 0, 0, 0, 0, 14}, {1, 1, 1, 1, 1, 1}}));
    sow(g, 5);
    CHECK(g.status() == Status::playing);
    CHECK(g.state().hole(0, 5) == 1);
  }
  SECTION("seat 1 finishing on its own turn wins as well") {
    MancalaSimple g(position(2, 6, {{0, 0, 0, 0, 1, 1}, {0, 0, 0, 0, 0, 1}}, 1));
    sow(g, 5);  // B's last stone in B's store: B finishes, A has stones left
    CHECK(g.result() == Result{{2, 1}, "finished"});
  }
}

TEST_CASE("M3: a finisher whose last stone lands in a store takes no extra move",
          "[mancala][rules]") {
  SECTION("3 players: the finisher leaves and the next seat moves") {
    MancalaSimple g(position(3, 6, {{0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}, {4, 4, 4, 4, 4, 4}}));
    Events written;
    sow(g, 5, &written);
    const Json events = written.json();
    const State& s = g.state();
    REQUIRE(g.status() == Status::playing);
    CHECK(g.pending().seat == 1);
    CHECK_FALSE(s.in_circuit(0));
    CHECK(s.place[0] == 1);
    for (auto& e : events) CHECK(e["type"] != "extra_move");
  }
  SECTION("2 players: the game ends at once") {
    MancalaSimple g(position(2, 6, {{0, 0, 0, 0, 0, 1}, {4, 4, 4, 4, 4, 4}}));
    sow(g, 5);
    CHECK(g.result() == Result{{1, 2}, "finished"});
    CHECK(g.pending().seat == kNoSeat);
  }
}

TEST_CASE("M3: only the mover's non-empty holes can be sown", "[mancala][rules]") {
  MancalaSimple g(position(3, 4, {{0, 2, 0, 1}, {4, 4, 4, 4}, {0, 0, 0, 5}}, 2));
  CHECK(g.pending().seat == 2);
  CHECK(g.pending().decision == "sow");
  CHECK(legal_holes(g) == std::vector<int>{3});
}

}  // namespace
}  // namespace tanbo_server::engine::games::mancala_simple
