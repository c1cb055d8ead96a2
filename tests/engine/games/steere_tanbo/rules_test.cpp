// Steere Tanbo rules on small diagrams: moves (S3), removal (S4), the end (S5).
#include "tests/engine/games/steere_tanbo/diagram.hpp"

using namespace steere_test;

TEST_CASE("S3: a stone goes next to exactly one stone of your colour", "[steere-tanbo][rules]") {
  // Black: a5, c5, c3 (three roots). White: b3-b2, d3, e1.
  const SteereTanbo game = diagram({
      "b.b..",
      ".....",
      ".wbw.",
      ".w...",
      "....w",
  });
  const std::vector<std::string> black_moves{"a4", "c2", "d5"};
  REQUIRE(legal_names(game) == black_moves);

  SECTION("a point next to no stone of your colour is not a move, even beside the opponent") {
    CHECK_FALSE(game.position().legal(*game.position().geometry().parse("b4")));
    CHECK_FALSE(game.position().legal(*game.position().geometry().parse("e5")));
  }
  SECTION("a point next to one own stone is a move, whatever opponent stones touch it") {
    // c2 touches c3 (Black) and b2 (White).
    CHECK(game.position().legal(*game.position().geometry().parse("c2")));
  }
  SECTION("a point next to two own stones of different roots is not a move") {
    CHECK_FALSE(game.position().legal(*game.position().geometry().parse("b5")));
    CHECK_FALSE(game.position().legal(*game.position().geometry().parse("c4")));
  }
  SECTION("White's moves follow the same rule") {
    const SteereTanbo w = diagram({"b.b..", ".....", ".wbw.", ".w...", "....w"}, white);
    const std::vector<std::string> white_moves{"a2", "a3", "b1", "b4", "c2",
                                               "d1", "d2", "d4", "e2", "e3"};
    CHECK(legal_names(w) == white_moves);
    CHECK(w.pending().seat == 1);
    CHECK(w.pending().decision == "place");
  }
}

TEST_CASE("S3: a point next to two stones of the same root is not a move",
          "[steere-tanbo][rules]") {
  // Black root a2-a1-b1: b2 touches a2 and b1.
  const SteereTanbo game = diagram({
      "...",
      "b..",
      "bbw",
  });
  CHECK(legal_names(game) == std::vector<std::string>{"a3"});
  CHECK(legal_names(diagram({"...", "b..", "bbw"}, white)) == std::vector<std::string>{"c2"});
}

TEST_CASE("S3: a placement enlarges the one root it touches", "[steere-tanbo][rules]") {
  SteereTanbo game = diagram({
      "b.b..",
      ".....",
      ".wbw.",
      ".w...",
      "....w",
  });
  const Geometry g = game.position().geometry();
  const RootId c3 = game.position().root_of(*g.parse("c3"));
  const int roots = game.position().roots_alive(black);
  const Json events = play(game, "c2");

  CHECK(game.position().root_of(*g.parse("c2")) == c3);
  CHECK(game.position().root(c3).stones == 2);
  CHECK(game.position().roots_alive(black) == roots);
  CHECK(game.position().to_move() == white);
  CHECK(game.invariant_violation().empty());
  const Json* placed = find_event(events, "place");
  REQUIRE(placed);
  CHECK(*placed ==
        Json{{"type", "place"}, {"seat", 0}, {"colour", "black"}, {"point", "c2"}, {"root", c3}});
}

TEST_CASE("S4: a bounded current root goes alone, though it bounded others too",
          "[steere-tanbo][rules]") {
  // a4 joins a3: the root a3-a4 has no liberty left, and neither have White's a5 and Black's b5
  // (b4 now touches b5 and a4).
  SteereTanbo game = diagram({
      "wbw..",
      ".....",
      "b.b..",
      ".....",
      "b.w..",
  });
  const Json events = play(game, "a4");
  const Position& pos = game.position();
  const Geometry g = pos.geometry();

  SECTION("only the current root is removed") {
    const Json* removed = find_event(events, "remove");
    REQUIRE(removed);
    CHECK(removed->at("rule") == "current_root_bounded");
    REQUIRE(removed->at("roots").size() == 1);
    CHECK(removed->at("roots")[0].at("colour") == "black");
    CHECK(removed->at("roots")[0].at("points") == Json{"a4", "a3"});  // board order, top first
    CHECK(pos.rows() == std::vector<std::string>{"wbw..", ".....", "..b..", ".....", "b.w.."});
  }
  SECTION("the roots it had bounded survive with their liberties back") {
    const Point a5 = *g.parse("a5"), b5 = *g.parse("b5");
    REQUIRE(pos.at(a5) == kWhiteStone);
    REQUIRE(pos.at(b5) == kBlackStone);
    CHECK(pos.root(pos.root_of(a5)).liberties == 1);  // a4
    CHECK(pos.root(pos.root_of(b5)).liberties == 1);  // b4
    CHECK(pos.moves(white).test(*g.parse("a4")));
    CHECK(pos.moves(black).test(*g.parse("b4")));
  }
  SECTION("no bounded root survives the turn") { CHECK(game.invariant_violation().empty()); }
  SECTION("the game goes on with White to move") {
    CHECK(game.status() == Status::playing);
    CHECK(game.pending().seat == 1);
    CHECK(pos.stones(black) == 3);
    CHECK(pos.roots_alive(black) == 3);
  }
}

TEST_CASE("S4: a current root with room left removes every bounded root of both colours",
          "[steere-tanbo][rules]") {
  // c2 takes White d2's last liberty, and fills the last liberty c1 of Black's d1.
  SteereTanbo game = diagram({
      "...w",
      "..b.",
      "...w",
      "...b",
  });
  const Json events = play(game, "c2");
  const Position& pos = game.position();

  const Json* removed = find_event(events, "remove");
  REQUIRE(removed);
  CHECK(removed->at("rule") == "roots_bounded");
  REQUIRE(removed->at("roots").size() == 2);
  std::vector<std::string> gone;
  for (const Json& r : removed->at("roots"))
    gone.push_back(r.at("colour").get<std::string>() + " " + r.at("points")[0].get<std::string>());
  std::sort(gone.begin(), gone.end());
  CHECK(gone == std::vector<std::string>{"black d1", "white d2"});
  CHECK(pos.rows() == std::vector<std::string>{"...w", "..b.", "..b.", "...."});
  CHECK(pos.roots_alive(black) == 1);
  CHECK(pos.roots_alive(white) == 1);
  CHECK(game.invariant_violation().empty());
}

TEST_CASE("S4: several roots of both colours bounded at once all go", "[steere-tanbo][rules]") {
  // d2 takes d3 from Black's d4, d2 from White's e2 and d1 from Black's e1; c2-d2 keeps b2.
  SteereTanbo game = diagram({
      "w.b..",
      "...bw",
      ".....",
      "..b.w",
      "....b",
  });
  const Json events = play(game, "d2");
  const Position& pos = game.position();

  const Json* removed = find_event(events, "remove");
  REQUIRE(removed);
  CHECK(removed->at("rule") == "roots_bounded");
  std::vector<std::string> gone;
  for (const Json& r : removed->at("roots"))
    gone.push_back(r.at("colour").get<std::string>() + " " + r.at("points").dump());
  std::sort(gone.begin(), gone.end());
  CHECK(gone == std::vector<std::string>{R"(black ["d4"])", R"(black ["e1"])", R"(white ["e2"])"});
  CHECK(pos.rows() == std::vector<std::string>{"w.b..", "....w", ".....", "..bb.", "....."});
  CHECK(pos.roots_alive(black) == 2);
  CHECK(pos.roots_alive(white) == 2);
  CHECK(game.invariant_violation().empty());
}

TEST_CASE("S5: removing your own last root loses, on your own turn", "[steere-tanbo][rules]") {
  // Black's only root c4 grows to d4 and is bounded.
  SteereTanbo game = diagram({
      ".wb.",
      "..ww",
      "....",
      "....",
  });
  const Json events = play(game, "d4");

  REQUIRE(game.status() == Status::finished);
  CHECK(game.result() == Result{{2, 1}, "annihilation"});
  CHECK(game.position().stones(black) == 0);
  CHECK(game.position().stones(white) == 3);
  const Json* win = find_event(events, "win");
  REQUIRE(win);
  CHECK(*win == Json{{"type", "win"}, {"seat", 1}, {"colour", "white"}});
  ActionList legal;
  game.legal_actions(legal);
  CHECK(legal.empty());
}

TEST_CASE("S5: removing the opponent's last root wins", "[steere-tanbo][rules]") {
  SteereTanbo game = diagram({
      "..b.",
      "..bw",
  });
  const Json events = play(game, "d2");
  REQUIRE(game.status() == Status::finished);
  CHECK(game.result() == Result{{1, 2}, "annihilation"});
  CHECK(game.position().stones(white) == 0);
  CHECK(find_event(events, "remove")->at("rule") == "roots_bounded");
  CHECK(game.state_json().at("winner") == "black");
}

TEST_CASE("R3: a resignation ends the game for the other seat", "[steere-tanbo][rules]") {
  SteereTanbo game = diagram({"..b.", "..bw"});
  Events written;
  game.resign(0, &written);
  const Json events = written.json();
  REQUIRE(game.status() == Status::finished);
  CHECK(game.result() == Result{{2, 1}, "resigned"});
  CHECK(*find_event(events, "win") == Json{{"type", "win"}, {"seat", 1}, {"colour", "white"}});
}
