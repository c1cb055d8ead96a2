// Hand-built positions for rulings Z1-Z8. Boards are 4 x 6 unless named: holes 0-5 are the
// outer row from the owner's left, 6-11 the inner row from the owner's right (sowing order).
#include <catch2/catch.hpp>

#include "engine/games/tsoro/sowing.hpp"
#include "tests/engine/games/tsoro/position.hpp"

using namespace tsoro_test;

namespace {

constexpr Side kTwoInFirstHole = {2};  // a side with a legal move that touches nothing else

Board board(const Side& seat0, const Side& seat1) { return {seat0, seat1}; }

}  // namespace

TEST_CASE("Z1, Z2: the standard set-up", "[tsoro][rules]") {
  SECTION("two stones in every outer hole, the inner rows empty") {
    Tsoro t(rules(21), 0);
    for (Seat s = 0; s < 2; ++s)
      CHECK(t.board()[s] ==
            from_rows({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2},
                      {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
    CHECK(t.state_json()["head_cols"] == Json::array({19, 20}));
  }
  SECTION("heads = one: the rightmost outer hole starts with three stones") {
    Tsoro t(rules(6, Heads::one), 1);
    CHECK(t.board()[0] == from_rows({2, 2, 2, 2, 2, 3}, {0, 0, 0, 0, 0, 0}));
    CHECK(t.board()[1] == t.board()[0]);
    CHECK(t.state_json()["head_cols"] == Json::array({5}));
    CHECK(t.mover() == 1);
  }
  SECTION("heads = none") {
    CHECK(Tsoro(rules(8, Heads::none), 0).state_json()["head_cols"] == Json::array());
  }
}

TEST_CASE("Z6: a player's column c faces the opponent's column N-1-c", "[tsoro][rules]") {
  // The mover sows from outer column 5 into inner columns 5 and 4: the last stone ends in the
  // empty inner column 4, which faces the opponent's column 1 (not their column 4).
  const Side mover = from_rows({0, 0, 0, 0, 0, 2}, {0, 0, 0, 0, 0, 0});
  const Side opponent = from_rows({0, 1, 0, 0, 2, 0}, {0, 3, 0, 0, 2, 0});
  const Seat seat = GENERATE(0, 1);
  CAPTURE(seat);
  Board b{};
  b[seat] = mover;
  b[1 - seat] = opponent;
  Tsoro t(rules(6, Heads::none, 0), b, seat);
  REQUIRE(legal(t) == ActionList{sow_action(outer_hole(5))});

  SECTION("the capture takes the facing column") {
    play(t, sow_action(outer_hole(5)));
    CHECK(t.captured(seat) == 4);
    CHECK(t.board()[1 - seat] == from_rows({0, 0, 0, 0, 2, 0}, {0, 0, 0, 0, 2, 0}));
    CHECK(t.mover() == 1 - seat);
  }
  SECTION("the state's rows put facing holes in one column, as seat 0 sees the board") {
    const Json rows = t.state_json()["rows"];
    const Json sides = t.state_json()["sides"];
    CHECK(sides[1 - seat]["outer"] == Json::array({0, 1, 0, 0, 2, 0}));
    CHECK(sides[1 - seat]["inner"] == Json::array({0, 3, 0, 0, 2, 0}));
    if (seat == 0) {
      CHECK(rows[0] == Json::array({0, 2, 0, 0, 1, 0}));  // seat 1's outer row, reversed
      CHECK(rows[1] == Json::array({0, 2, 0, 0, 3, 0}));
      CHECK(rows[2] == Json::array({0, 0, 0, 0, 0, 0}));
      CHECK(rows[3] == Json::array({0, 0, 0, 0, 0, 2}));
    } else {
      CHECK(rows[0] == Json::array({2, 0, 0, 0, 0, 0}));
      CHECK(rows[3] == Json::array({0, 1, 0, 0, 2, 0}));
    }
  }
}

TEST_CASE("Z3: a relay sows on over several laps", "[tsoro][rules]") {
  SECTION("each last stone in an occupied hole lifts it and sows on") {
    Tsoro t(rules(6, Heads::none), board(in_sowing_order({2, 0, 1, 0, 1}), kTwoInFirstHole), 0);
    Events written;
    play(t, sow_action(0), &written);
    const Json events = written.json();
    CHECK(t.board()[0] == in_sowing_order({0, 1, 0, 1, 0, 1, 1}));
    CHECK(events[0]["laps"] == 3);
    CHECK(events[0]["last"] == Json({{"row", "inner"}, {"col", 5}}));
    CHECK(t.mover() == 1);
  }
  SECTION("the origin is not skipped: a full round ends in the emptied start") {
    Tsoro t(rules(6, Heads::none), board(in_sowing_order({12}), kTwoInFirstHole), 0);
    Events written;
    play(t, sow_action(0), &written);
    const Json events = written.json();
    CHECK(t.board()[0] == in_sowing_order({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
    CHECK(events[0]["laps"] == 1);
    CHECK(events[0]["last"] == Json({{"row", "outer"}, {"col", 0}}));
  }
  SECTION("a move that sows into other holes only passes its heads") {
    Tsoro t(rules(6), board(in_sowing_order({0, 0, 0, 2}), kTwoInFirstHole), 0);
    play(t, sow_action(3));  // into holes 4 and 5, both heads, the last one empty
    CHECK(t.board()[0] == in_sowing_order({0, 0, 0, 0, 1, 1}));
    CHECK(t.mover() == 1);
  }
}

TEST_CASE("Z3: a last stone in an occupied own head lets the mover relay or stop",
          "[tsoro][rules]") {
  // From hole 2 into holes 3 and 4: hole 4, a head, held a stone.
  const Board b = board(in_sowing_order({0, 0, 2, 0, 1}), kTwoInFirstHole);
  Tsoro t(rules(6), b, 0);
  play(t, sow_action(2));
  REQUIRE(t.phase() == Tsoro::Phase::head);
  CHECK(t.pending().seat == 0);
  CHECK(t.pending().decision == "head");
  CHECK(legal_json(t) == Json::array({{{"head", "relay"}}, {{"head", "stop"}}}));
  CHECK(t.state_json()["head"] == Json({{"row", "outer"}, {"col", 4}}));

  SECTION("stop ends the move") {
    play(t, kHeadStop);
    CHECK(t.board()[0] == in_sowing_order({0, 0, 0, 1, 2}));
    CHECK(t.mover() == 1);
  }
  SECTION("relay sows the head's stones on") {
    play(t, kHeadRelay);
    CHECK(t.board()[0] == in_sowing_order({0, 0, 0, 1, 0, 1, 1}));
    CHECK(t.mover() == 1);
  }
  SECTION("without heads the same landing relays at once") {
    Tsoro none(rules(6, Heads::none), b, 0);
    play(none, sow_action(2));
    CHECK(none.board()[0] == in_sowing_order({0, 0, 0, 1, 0, 1, 1}));
    CHECK(none.mover() == 1);
  }
}

TEST_CASE("Z5: the known endless relay on 4 x 8 is not a legal start", "[tsoro][rules]") {
  const Side side = in_sowing_order({0, 1, 0, 1, 0, 3, 2, 1, 0, 1, 2, 0, 1, 0, 2, 1});
  const Rules r = rules(8, Heads::none);
  SECTION("its sowing repeats a state") {
    Side copy = side;
    CHECK(sow(copy, r, 10).end == SowEnd::endless);
  }
  SECTION("the other starts of two or more stay legal") {
    Tsoro t(r, board(side, kTwoInFirstHole), 0);
    CHECK(legal(t) == ActionList{sow_action(5), sow_action(6), sow_action(14)});
  }
}

TEST_CASE("Z4: singletons move only when no start of two or more is legal", "[tsoro][rules]") {
  SECTION("a single stone moves only into an empty next hole") {
    // Hole 0 is followed by a stone, hole 11 wraps round onto hole 0's.
    Tsoro t(rules(6), board(in_sowing_order({1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1}), kTwoInFirstHole),
            0);
    CHECK(legal(t) == ActionList{sow_action(1), sow_action(3)});
    CHECK(t.state_json()["singletons"] == true);
    play(t, sow_action(3));  // into hole 4, an empty head: no decision
    CHECK(t.board()[0] == in_sowing_order({1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1}));
    CHECK(t.mover() == 1);
  }
  SECTION("no singleton while a start of two or more ends") {
    Tsoro t(rules(6), board(in_sowing_order({1, 1, 0, 1, 0, 0, 2}), kTwoInFirstHole), 0);
    CHECK(legal(t) == ActionList{sow_action(6)});
    CHECK(t.state_json()["singletons"] == false);
  }
  SECTION("singletons when every start of two or more is endless") {
    const Side side = in_sowing_order({3, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1});
    Side copy = side;
    REQUIRE(sow(copy, rules(6, Heads::none), 0).end == SowEnd::endless);
    Tsoro t(rules(6, Heads::none), board(side, kTwoInFirstHole), 0);
    CHECK(legal(t) ==
          ActionList{sow_action(1), sow_action(3), sow_action(5), sow_action(7), sow_action(9)});
  }
}

TEST_CASE("Z4, Z6: a singleton move can capture", "[tsoro][rules]") {
  // Hole 8 (inner column 3) moves into hole 9 (inner column 2), facing the opponent's column 3.
  Tsoro t(rules(6, Heads::two, 0),
          board(in_sowing_order({1, 0, 0, 0, 0, 0, 0, 0, 1}),
                from_rows({1, 0, 0, 2, 0, 0}, {0, 0, 0, 3, 0, 0})),
          0);
  REQUIRE(legal(t) == ActionList{sow_action(0), sow_action(8)});
  play(t, sow_action(8));
  CHECK(t.captured(0) == 5);
  CHECK(t.board()[1] == from_rows({1, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}));
}

TEST_CASE("Z6: a capture takes the facing inner hole and the outer hole behind it",
          "[tsoro][rules]") {
  SECTION("an empty outer hole behind: the inner hole alone") {
    // Four stones from hole 3 end in hole 7, inner column 4, facing the opponent's column 1.
    Tsoro t(rules(6, Heads::two, 0),
            board(in_sowing_order({0, 0, 0, 4}), from_rows({2, 0, 0, 0, 0, 0}, {0, 3, 0, 0, 0, 0})),
            0);
    Events written;
    play(t, sow_action(3), &written);
    const Json events = written.json();
    CHECK(t.captured(0) == 3);
    CHECK(t.board()[1] == from_rows({2, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}));
    CHECK(events[1] ==
          Json({{"type", "capture"}, {"seat", 0}, {"col", 4}, {"inner", 3}, {"outer", 0}}));
  }
  SECTION("a head behind is taken too") {
    // From hole 9 into hole 11, inner column 0, facing the opponent's column 5: their head.
    Tsoro t(rules(6, Heads::two, 0),
            board(in_sowing_order({0, 0, 0, 0, 0, 0, 0, 0, 0, 2}),
                  from_rows({2, 0, 0, 0, 0, 4}, {0, 0, 0, 0, 0, 1})),
            0);
    play(t, sow_action(9));
    CHECK(t.captured(0) == 5);
    CHECK(t.board()[1] == from_rows({2, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}));
  }
  SECTION("nothing is taken when the facing inner hole is empty") {
    Tsoro t(rules(6, Heads::two, 0),
            board(in_sowing_order({0, 0, 0, 4}), from_rows({2, 3, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0})),
            0);
    play(t, sow_action(3));
    CHECK(t.captured(0) == 0);
    CHECK(t.board()[1] == from_rows({2, 3, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0}));
  }
}

TEST_CASE("Z6: bonus picks are distinct non-empty opponent holes, never a head", "[tsoro][rules]") {
  // The capture of column 5 (5 stones) leaves outer 0, outer 2, inner 3 and the head outer 4.
  const Board b = board(in_sowing_order({0, 0, 0, 0, 0, 0, 0, 0, 0, 2}),
                        from_rows({2, 0, 1, 0, 3, 4}, {0, 0, 0, 2, 0, 1}));
  SECTION("one decision per pick, named across the board from the capturer's seat") {
    Tsoro t(rules(6), b, 0);
    play(t, sow_action(9));
    REQUIRE(t.phase() == Tsoro::Phase::bonus);
    CHECK(t.pending().decision == "bonus");
    CHECK(legal_json(t) == Json::array({{{"bonus", {{"row", "outer"}, {"col", 5}}}},
                                        {{"bonus", {{"row", "outer"}, {"col", 3}}}},
                                        {{"bonus", {{"row", "inner"}, {"col", 2}}}}}));
    play(t, bonus_action(inner_hole(3, 6)));
    CHECK_FALSE(is_legal(t, bonus_action(inner_hole(3, 6))));
    CHECK(t.state_json()["bonus_left"] == 1);
    play(t, bonus_action(outer_hole(0)));
    CHECK(t.captured(0) == 9);
    CHECK(t.board()[1] == from_rows({0, 0, 1, 0, 3, 0}, {0, 0, 0, 0, 0, 0}));
    CHECK(t.mover() == 1);
  }
  SECTION("bonus_optional: the capturer may stop") {
    Tsoro t(rules(6, Heads::two, 2, true), b, 0);
    play(t, sow_action(9));
    CHECK(legal_json(t).back() == Json({{"bonus", "stop"}}));
    CHECK(legal(t).size() == 4);
    play(t, kBonusStop);
    CHECK(t.captured(0) == 5);
    CHECK(t.mover() == 1);
  }
  SECTION("bonus_holes = 3 takes every eligible hole") {
    Tsoro t(rules(6, Heads::two, 3), b, 0);
    play(t, sow_action(9));
    CHECK(t.captured(0) == 10);
    CHECK(t.board()[1] == from_rows({0, 0, 0, 0, 3, 0}, {0, 0, 0, 0, 0, 0}));
  }
}

TEST_CASE("Z6: with fewer eligible holes than picks, all of them are taken", "[tsoro][rules]") {
  // After the capture of column 5 only outer 2 is eligible; the head outer 4 never is.
  const Board b = board(in_sowing_order({0, 0, 0, 0, 0, 0, 0, 0, 0, 2}),
                        from_rows({0, 0, 1, 0, 3, 4}, {0, 0, 0, 0, 0, 1}));
  SECTION("at once when stopping is not allowed") {
    Tsoro t(rules(6), b, 0);
    play(t, sow_action(9));
    CHECK(t.captured(0) == 6);
    CHECK(t.board()[1] == from_rows({0, 0, 0, 0, 3, 0}, {0, 0, 0, 0, 0, 0}));
    CHECK(t.mover() == 1);
  }
  SECTION("one decision at a time with bonus_optional") {
    Tsoro t(rules(6, Heads::two, 2, true), b, 0);
    play(t, sow_action(9));
    CHECK(legal_json(t) ==
          Json::array({{{"bonus", {{"row", "outer"}, {"col", 3}}}}, {{"bonus", "stop"}}}));
  }
}

TEST_CASE("Z7: a capture that leaves the opponent no stones wins", "[tsoro][rules]") {
  Tsoro t(rules(6),
          board(in_sowing_order({0, 0, 0, 0, 0, 0, 0, 0, 0, 2}),
                from_rows({0, 0, 1, 0, 0, 4}, {0, 0, 0, 0, 0, 1})),
          0);
  play(t, sow_action(9));  // column 5, then the bonus hole outer 2
  REQUIRE(t.status() == Status::finished);
  CHECK(t.result() == Result{{1, 2}, "captured_all"});
}

TEST_CASE("Z7: a player with no legal move at the start of their turn loses", "[tsoro][rules]") {
  // Seat 0 holds one stone in every hole: no start of two, no singleton with an empty next hole.
  const Side full = in_sowing_order({1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1});
  SECTION("after the opponent's move") {
    Tsoro t(rules(6), board(full, kTwoInFirstHole), 1);
    REQUIRE(legal(t) == ActionList{sow_action(0)});
    play(t, sow_action(0));
    REQUIRE(t.status() == Status::finished);
    CHECK(t.result() == Result{{2, 1}, "immobilised"});
  }
  SECTION("a position built with the immobilised player to move is over") {
    Tsoro t(rules(6), board(full, kTwoInFirstHole), 0);
    CHECK(t.status() == Status::finished);
    CHECK(t.result() == Result{{2, 1}, "immobilised"});
  }
}

TEST_CASE("Z8: a forced cycle on 4 x 6 ends by threefold repetition", "[tsoro][rules]") {
  Tsoro t(rules(6, Heads::none),
          board(in_sowing_order({0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 2}),
                in_sowing_order({1, 0, 0, 0, 0, 0, 0, 1, 2, 0, 1, 1})),
          0);
  while (t.status() != Status::finished) {
    REQUIRE(legal(t).size() == 1);  // one legal move on each side, every turn
    play(t, legal(t).front());
  }
  CHECK(t.result() == Result{{1, 1}, "repetition"});  // 6 stones each
  CHECK(t.occurrences() == 3);
  CHECK(t.captured(0) + t.captured(1) == 0);
  CHECK(t.turn() < kNoCaptureTurns);
}

TEST_CASE("Z8: 200 turns without a capture end the game", "[tsoro][rules]") {
  // 4 x 21, three single stones a side; a fixed sequence of random choices never captures.
  Side seat0{}, seat1{};
  seat0[32] = 2;
  seat0[41] = 1;
  seat1[29] = seat1[31] = seat1[33] = 1;
  Tsoro t(rules(21, Heads::none), board(seat0, seat1), 0);
  FastRng choice(42);
  ActionList l;
  while (t.status() != Status::finished) {
    t.legal_actions(l);
    play(t, l[choice.below(std::uint32_t(l.size()))]);
  }
  CHECK(t.result() == Result{{1, 1}, "no_capture"});
  CHECK(t.turn() == kNoCaptureTurns);
  CHECK(t.captured(0) + t.captured(1) == 0);
}

TEST_CASE("R3: a resigning player loses", "[tsoro][rules]") {
  Tsoro t(rules(6), 0);
  t.resign(1, nullptr);
  REQUIRE(t.status() == Status::finished);
  CHECK(t.result() == Result{{1, 2}, "resigned"});
}
