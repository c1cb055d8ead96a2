// Steere Tanbo set-up (S1, S2, R6), options, and the JSON the game shows.
#include "tests/engine/games/steere_tanbo/diagram.hpp"

#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace steere_test;

namespace {

std::unique_ptr<Game> create(const Json& options, const Json& setup = nullptr) {
  Drbg rng(seed_from_text("steere-tanbo start"));
  Created c = create_game("steere-tanbo", options, setup, 2, rng);
  REQUIRE(c.problems.empty());
  return std::move(c.game);
}

Problems problems_of(const Json& options, const Json& setup = nullptr) {
  Drbg rng(seed_from_text("steere-tanbo start"));
  return create_game("steere-tanbo", options, setup, 2, rng).problems;
}

}  // namespace

TEST_CASE("S2: the dense start on every board", "[steere-tanbo][setup]") {
  const auto [size, width, height] = GENERATE(table<std::string, int, int>({
      {"7x7", 7, 7},
      {"11x11", 11, 11},
      {"15x15", 15, 15},
      {"19x19", 19, 19},
      {"5x7", 5, 7},
      {"7x9", 7, 9},
      {"9x11", 9, 11},
      {"11x13", 11, 13},
      {"13x15", 13, 15},
  }));
  CAPTURE(size);
  const auto game = create({{"size", size}, {"first", 0}});
  const auto& st = dynamic_cast<const SteereTanbo&>(*game);
  const Position& pos = st.position();
  const Geometry& g = pos.geometry();
  REQUIRE(g == Geometry{width, height});

  const int stones = ((width + 1) / 2) * ((height + 1) / 2);
  SECTION("a stone on every point with both coordinates even, none elsewhere") {
    int counted = 0;
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) {
        const bool even = x % 2 == 0 && y % 2 == 0;
        CHECK((pos.at(g.at(x, y)) != kEmpty) == even);
        counted += pos.at(g.at(x, y)) != kEmpty;
      }
    CHECK(counted == stones);
  }
  SECTION("a checkerboard on that lattice, Black in the top-left corner") {
    for (int y = 0; y < height; y += 2)
      for (int x = 0; x < width; x += 2)
        CHECK(pos.at(g.at(x, y)) == ((x / 2 + y / 2) % 2 ? kWhiteStone : kBlackStone));
    CHECK(pos.at(*g.parse("a" + std::to_string(height))) == kBlackStone);
  }
  SECTION("equal numbers, every stone its own root") {
    CHECK(pos.stones(black) == stones / 2);
    CHECK(pos.stones(white) == stones / 2);
    CHECK(pos.roots_alive(black) == stones / 2);
    CHECK(pos.roots_alive(white) == stones / 2);
    CHECK(pos.root_count() == stones);
  }
  SECTION("Black to move, played by the first seat (R6)") {
    CHECK(pos.to_move() == black);
    CHECK(game->pending().seat == 0);
    const auto second = create({{"size", size}, {"first", 1}});
    CHECK(second->pending().seat == 1);
    CHECK(dynamic_cast<const SteereTanbo&>(*second).seat_of(black) == 1);
  }
  SECTION("no bounded root, and the counters agree with the board") {
    CHECK(game->invariant_violation().empty());
  }
}

TEST_CASE("S2: the classic start is the 1993 one, on 19x19 only", "[steere-tanbo][setup]") {
  SECTION("16 stones on lines 1, 7, 13, 19, Black where x/6 + y/6 is even") {
    const auto game = create({{"size", "19x19"}, {"start", "classic"}, {"first", 0}});
    const Position& pos = dynamic_cast<const SteereTanbo&>(*game).position();
    CHECK(pos.stones(black) == 8);
    CHECK(pos.stones(white) == 8);
    const std::vector<std::string> expected{
        "b.....w.....b.....w", "...................", "...................", "...................",
        "...................", "...................", "w.....b.....w.....b", "...................",
        "...................", "...................", "...................", "...................",
        "b.....w.....b.....w", "...................", "...................", "...................",
        "...................", "...................", "w.....b.....w.....b"};
    CHECK(pos.rows() == expected);
    CHECK(game->invariant_violation().empty());
  }
  SECTION("any other size is a bad set-up naming start") {
    const Problems p = problems_of({{"size", "11x11"}, {"start", "classic"}});
    REQUIRE(p.size() == 1);
    CHECK(p[0].field == "start");
  }
}

TEST_CASE("S1: options outside the lists are refused by name", "[steere-tanbo][setup]") {
  CHECK(problems_of({{"size", "8x8"}}).at(0).field == "size");
  CHECK(problems_of({{"start", "sparse"}}).at(0).field == "start");
  CHECK(problems_of(nullptr).empty());
  const auto game = create(nullptr);
  CHECK(dynamic_cast<const SteereTanbo&>(*game).position().geometry() == Geometry{11, 11});
}

TEST_CASE("S2: algebraic names: column letters from a, rows from the bottom",
          "[steere-tanbo][json]") {
  const Geometry g{5, 7};
  CHECK(g.name(g.at(0, 0)) == "a7");
  CHECK(g.name(g.at(4, 6)) == "e1");
  CHECK(g.name(g.at(2, 3)) == "c4");
  const Geometry big{19, 19};
  CHECK(big.name(big.at(18, 0)) == "s19");
  CHECK(big.name(big.at(8, 10)) == "i9");  // no letter skipped
  SECTION("names and points round-trip on every board point") {
    for (int y = 0; y < g.height; ++y)
      for (int x = 0; x < g.width; ++x) CHECK(g.parse(g.name(g.at(x, y))) == g.at(x, y));
  }
  SECTION("names off the board are refused") {
    for (const char* bad : {"f1", "a0", "a8", "a01", "", "a", "1a", "A1", "c4 "})
      CHECK_FALSE(g.parse(bad));
  }
}

TEST_CASE("A move's JSON is {\"place\": point}, sent back verbatim", "[steere-tanbo][json]") {
  Record head;
  head.game = "steere-tanbo";
  head.options = {{"size", "7x7"}, {"first", 1}};
  head.seed = seed_from_text("steere-tanbo json");
  Problems problems;
  auto match = Match::start(head, problems);
  REQUIRE(match);
  // The dense 7x7 start: Black's legal points are the empty points next to one black stone.
  CHECK(match->legal_json().size() == 24);
  CHECK(match->legal_json()[0] == Json{{"place", "b7"}});
  CHECK(match->act(0, {{"place", "b7"}})->code == tanbo_server::engine::RefusalCode::not_your_turn);
  CHECK(match->act(1, {{"place", "b6"}})->code ==
        tanbo_server::engine::RefusalCode::illegal_action);
  REQUIRE_FALSE(match->act(1, {{"place", "b7"}}));
  const Json events = match->events().json();
  const Json* placed = find_event(events, "place");
  REQUIRE(placed);
  CHECK(placed->at("point") == "b7");
  CHECK(placed->at("seat") == 1);
}

TEST_CASE("The state JSON shows the board, the roots, the counts and the side to move",
          "[steere-tanbo][json]") {
  SteereTanbo game = diagram({
      "b.b..",
      ".....",
      ".wbw.",
      ".w...",
      "....w",
  });
  play(game, "c2");
  const Json s = game.state_json();
  CHECK(s.at("size") == "5x5");
  CHECK(s.at("board") == Json{"b.b..", ".....", ".wbw.", ".wb..", "....w"});
  CHECK(s.at("stones") == Json{{"black", 4}, {"white", 4}});
  CHECK(s.at("to_move") == 1);  // the seat, as in every game; its colour:
  CHECK(s.at("colour_to_move") == "white");
  CHECK(s.at("seats") == Json{{"black", 0}, {"white", 1}});
  CHECK(s.at("ply") == 1);
  REQUIRE(s.at("roots").size() == 6);
  bool found = false;
  for (const Json& r : s.at("roots"))
    if (r.at("stones") == Json{"c3", "c2"}) {
      found = true;
      CHECK(r.at("colour") == "black");
      CHECK(r.at("liberties") == 2);  // c1, d2
    }
  CHECK(found);

  {  // In protocol version 1's names, to_move is the colour.
    namespace core = tanbo_server::engine;
    const Json old = Json::parse(core::state_text(game, core::Names::v1));
    Json now = s;
    now["to_move"] = now.at("colour_to_move");
    now.erase("colour_to_move");
    CHECK(old == now);
  }
}

TEST_CASE("A custom set-up is a diagram, checked like any position", "[steere-tanbo][setup]") {
  const Json opts = {{"size", "5x7"}, {"first", 0}};
  const std::vector<std::string> rows{"b....", ".....", ".....", ".....",
                                      ".....", ".....", "....w"};
  SECTION("a good diagram starts there, with the side to move given") {
    for (const char* key : {"colour_to_move", "to_move"}) {  // to_move: version 1's name
      const auto game = create(opts, {{"board", rows}, {key, "white"}});
      CHECK(dynamic_cast<const SteereTanbo&>(*game).position().rows() == rows);
      CHECK(game->pending().seat == 1);
      CHECK(game->state_json().at("colour_to_move") == "white");
    }
  }
  SECTION(
      "a diagram of the wrong size, a bad character, a missing colour or a bounded root is "
      "refused naming setup") {
    std::vector<std::string> small(rows.begin(), rows.end() - 1);
    std::vector<std::string> bad_char = rows;
    bad_char[3][2] = 'x';
    std::vector<std::string> no_white = rows;
    no_white[6] = ".....";
    std::vector<std::string> bounded = rows;
    bounded[0] = "bw...";
    bounded[1] = "w....";
    for (const auto& r : {small, bad_char, no_white, bounded}) {
      const Problems p = problems_of(opts, {{"board", r}});
      REQUIRE(p.size() == 1);
      CHECK(p[0].field == "setup");
    }
    CHECK(problems_of(opts, {{"rows", rows}}).at(0).field == "setup");
    CHECK(problems_of(opts, {{"board", rows}, {"to_move", "red"}}).at(0).field == "setup");
    CHECK(problems_of(opts, {{"board", rows}, {"colour_to_move", "red"}}).at(0).field == "setup");
  }
}
