// Game records (R1, R2), identities and ratings (M7) as the store keeps them.
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

Json result(std::vector<int> places, const char* reason = "empty") {
  return {{"places", std::move(places)}, {"reason", reason}};
}

void add_identities(Store& s) {
  REQUIRE(s.create_identity("alice", "Alice", "hash-a").ok());
  REQUIRE(s.create_identity("bob", "Bob", "hash-b").ok());
}

}  // namespace

TEST_CASE("R1: the record of a game still playing hides its seed", "[store][records]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  add_identities(*store);
  RoomRow row = sample_room("r");
  REQUIRE(store->create_room(row).ok());
  REQUIRE(store->append_action("r", 1, 1, 1, Json{{"hole", 3}}).ok());
  auto rec = store->game_record("r-1");
  REQUIRE(rec);
  CHECK_FALSE(rec->contains("seed"));
  SECTION("a decision the computer made for the seat keeps why") {
    REQUIRE(store->append_action("r", 1, 2, 0, Json{{"hole", 1}}, nullptr, 0, "takeover").ok());
    auto later = store->game_record("r-1");
    REQUIRE(later);
    CHECK((*later)["actions"] == Json::parse(R"([{"seat":1,"action":{"hole":3}},
                                                {"seat":0,"action":{"hole":1},"by":"takeover"}])"));
    std::vector<LoggedAction> loaded;
    for (auto& room : store->load_unfinished({}))
      if (room.row.id == "r") loaded = room.actions;
    REQUIRE(loaded.size() == 2);
    CHECK(loaded[0].by.empty());
    CHECK(loaded[1].by == "takeover");
  }
  CHECK(rec->dump().find(row.seed) == std::string::npos);
  CHECK((*rec)["commit"] == row.commit);
  CHECK((*rec)["status"] == "playing");
  CHECK((*rec)["result"].is_null());
  CHECK((*rec)["actions"] == Json::parse(R"([{"seat":1,"action":{"hole":3}}])"));
  CHECK((*rec)["players_info"] ==
        Json::parse(
            R"([{"seat":0,"id":"alice","name":"Alice"},{"seat":1,"id":"bob","name":"Bob"}])"));
}

TEST_CASE("R2: a finished game's record is the replay format with its seed revealed",
          "[store][records]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  add_identities(*store);
  RoomRow row = sample_room("r");
  REQUIRE(store->create_room(row).ok());
  REQUIRE(store->append_action("r", 1, 1, 1, Json{{"hole", 3}}).ok());
  REQUIRE(store->append_action("r", 1, 2, 0, "resign").ok());
  REQUIRE(store->finish_game("r", 1, result({2, 1}, "resign"), row.created_at + 5000).ok());
  // A seat changing after the end does not rewrite who played.
  REQUIRE(store->set_seat("r", 1, "").ok());
  auto rec = store->game_record("r-1");
  REQUIRE(rec);
  std::string error;
  auto parsed = tanbo_server::engine::Record::from_json(*rec, error);
  INFO(error);
  REQUIRE(parsed);
  CHECK(tanbo_server::engine::seed_hex(parsed->seed) == row.seed);
  CHECK(parsed->game == "mancala-simple");
  CHECK(parsed->options == row.options);
  CHECK(parsed->actions.size() == 2);
  CHECK((*rec)["status"] == "finished");
  CHECK((*rec)["result"] == result({2, 1}, "resign"));
  CHECK((*rec)["started_at"] == row.created_at);
  CHECK((*rec)["finished_at"] == row.created_at + 5000);
  CHECK((*rec)["players_info"][1]["id"] == "bob");
  SECTION("an id that names no game") {
    CHECK_FALSE(store->game_record("r-2"));
    CHECK_FALSE(store->game_record("nope"));
    CHECK_FALSE(store->game_record("r-x"));
  }
}

TEST_CASE("M7: finish_game writes the result and the ratings in one transaction",
          "[store][ratings]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  add_identities(*store);
  RoomRow row = sample_room("r");
  row.ranked = true;
  REQUIRE(store->create_room(row).ok());

  SECTION("both are written") {
    REQUIRE(store->finish_game("r", 1, result({1, 2}), 100).ok());
    const double e = 0.5;  // equal ratings expect half a point each
    CHECK(store->rating("alice", "mancala-simple") == Approx(1500 + 32 * (1 - e)).margin(1e-9));
    CHECK(store->rating("bob", "mancala-simple") == Approx(1500 + 32 * (0 - e)).margin(1e-9));
    auto rec = store->game_record("r-1");
    REQUIRE(rec);
    CHECK((*rec)["status"] == "finished");
    CHECK((*rec)["players_info"][0]["rating_after"] == 1516);
    auto board = store->leaderboard("mancala-simple", 10);
    REQUIRE(board.size() == 2);
    CHECK(board[0] ==
          Json{{"rank", 1}, {"id", "alice"}, {"name", "Alice"}, {"rating", 1516}, {"games", 1}});
    CHECK(board[1]["rating"] == 1484);
  }
  SECTION("neither is written when the transaction fails midway") {
    // The seats are written after the ratings; a trigger makes that step fail.
    if (backend == Backend::sqlite) {
      db.exec(
          "CREATE TRIGGER fail_game_players BEFORE INSERT ON game_players "
          "BEGIN SELECT RAISE(ABORT, 'disk trouble'); END");
    } else {
      db.exec(
          "CREATE FUNCTION disk_trouble() RETURNS trigger LANGUAGE plpgsql AS "
          "$$ BEGIN RAISE EXCEPTION 'disk trouble'; END $$");
      db.exec(
          "CREATE TRIGGER fail_game_players BEFORE INSERT ON game_players "
          "FOR EACH ROW EXECUTE FUNCTION disk_trouble()");
    }
    CHECK_FALSE(store->finish_game("r", 1, result({1, 2}), 100).ok());
    CHECK(store->rating("alice", "mancala-simple") == kInitialRating);
    CHECK(store->leaderboard("mancala-simple", 10).empty());
    auto rec = store->game_record("r-1");
    REQUIRE(rec);
    CHECK((*rec)["status"] == "playing");
  }
  SECTION("the caller is told what the result did to the ratings, rounded") {
    Json told = "untouched";
    REQUIRE(store->finish_game("r", 1, result({1, 2}), 100, &told).ok());
    CHECK(told == Json::parse(R"([{"before":1500,"after":1516},{"before":1500,"after":1484}])"));
  }
  SECTION("a seat the computer finished for its absent player is rated last") {
    Json won = result({1, 2});
    won["takeover"] = {0};  // the computer won in Alice's seat
    Json told;
    REQUIRE(store->finish_game("r", 1, won, 100, &told).ok());
    CHECK(told == Json::parse(R"([{"before":1500,"after":1484},{"before":1500,"after":1516}])"));
    CHECK(store->rating("alice", "mancala-simple") == Approx(1484).margin(1e-9));
    auto rec = store->game_record("r-1");
    REQUIRE(rec);
    CHECK((*rec)["result"] == won);  // the places the board reached, and who was not there
    CHECK((*rec)["players_info"][0]["rating_after"] == 1484);
  }
  SECTION("both seats left: they share the last place, a draw") {
    Json both = result({1, 2});
    both["takeover"] = {0, 1};
    REQUIRE(store->finish_game("r", 1, both, 100).ok());
    CHECK(store->rating("alice", "mancala-simple") == Approx(1500).margin(1e-9));
    CHECK(store->rating("bob", "mancala-simple") == Approx(1500).margin(1e-9));
  }
  SECTION("a takeover that names no seat, or a seat twice, is refused") {
    for (const char* bad : {"[2]", "[-1]", "[]", "[1, 1]", "[1, 0]", "\"1\"", "[0.5]"}) {
      CAPTURE(bad);
      Json r = result({1, 2});
      r["takeover"] = Json::parse(bad);
      CHECK(store->finish_game("r", 1, r, 100).code == Code::invalid);
    }
  }
  SECTION("an unranked room leaves ratings alone") {
    RoomRow casual = sample_room("c");
    REQUIRE(store->create_room(casual).ok());
    Json told = "untouched";
    REQUIRE(store->finish_game("c", 1, result({1, 2}), 100, &told).ok());
    CHECK(told.is_null());
    CHECK(store->leaderboard("mancala-simple", 10).empty());
  }
  SECTION("a ranked game with a free seat rates nobody") {
    REQUIRE(store->set_seat("r", 1, "").ok());
    REQUIRE(store->finish_game("r", 1, result({1, 2}), 100).ok());
    CHECK(store->rating("alice", "mancala-simple") == kInitialRating);
  }
}

TEST_CASE("list_games pages finished games newest first", "[store][records]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  // Seven finished games: g0..g6 finishing at 1000 + 10 * i, with g3 and g4 at the same time.
  for (int i = 0; i < 7; ++i) {
    std::string id = "g";
    id.push_back(char('0' + i));  // not "g" + to_string(i): GCC 12 -O3 warns falsely (-Wrestrict)
    RoomRow row = sample_room(id);
    if (i % 2) row.seats = {"alice", "carol"};
    if (i == 6) row.game = "tsoro";
    REQUIRE(store->create_room(row).ok());
    const std::int64_t at = 1000 + 10 * (i == 4 ? 3 : i);
    REQUIRE(store->finish_game(row.id, 1, result({1, 2}), at).ok());
  }
  REQUIRE(store->create_room(sample_room("playing")).ok());  // unfinished: never listed

  auto ids = [](const Json& page) {
    std::vector<std::string> out;
    for (const auto& g : page["games"]) out.push_back(g["id"]);
    return out;
  };
  SECTION("pages of three follow each other without gap or repeat") {
    auto p1 = store->list_games(std::nullopt, std::nullopt, 3, std::nullopt);
    CHECK(ids(p1) == std::vector<std::string>{"g6-1", "g5-1", "g4-1"});
    REQUIRE(p1["next"].is_string());
    auto p2 = store->list_games(std::nullopt, std::nullopt, 3, p1["next"].get<std::string>());
    CHECK(ids(p2) == std::vector<std::string>{"g3-1", "g2-1", "g1-1"});
    auto p3 = store->list_games(std::nullopt, std::nullopt, 3, p2["next"].get<std::string>());
    CHECK(ids(p3) == std::vector<std::string>{"g0-1"});
    CHECK(p3["next"].is_null());
  }
  SECTION("a time as the cursor lists games finished strictly before it") {
    auto p = store->list_games(std::nullopt, std::nullopt, 10, "1030");
    CHECK(ids(p) == std::vector<std::string>{"g2-1", "g1-1", "g0-1"});
  }
  SECTION("filtered by player") {
    auto p = store->list_games("carol", std::nullopt, 10, std::nullopt);
    CHECK(ids(p) == std::vector<std::string>{"g5-1", "g3-1", "g1-1"});
  }
  SECTION("filtered by game") {
    auto p = store->list_games(std::nullopt, "tsoro", 10, std::nullopt);
    CHECK(ids(p) == std::vector<std::string>{"g6-1"});
  }
  SECTION("a malformed cursor is an error value") {
    auto p = store->list_games(std::nullopt, std::nullopt, 10, "yesterday");
    CHECK(p["games"].empty());
    CHECK(p.contains("error"));
  }
}

TEST_CASE("identities keep only their token's hash and a validated name", "[store][identity]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  CAPTURE(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("id1", "Guest 17", "h-one").ok());
  SECTION("found by the hash") {
    auto id = store->identity_by_token_hash("h-one");
    REQUIRE(id);
    CHECK(*id == Identity{"id1", "Guest 17"});
    CHECK_FALSE(store->identity_by_token_hash("h-two"));
  }
  SECTION("found by its id") {
    auto id = store->identity_by_id("id1");
    REQUIRE(id);
    CHECK(*id == Identity{"id1", "Guest 17"});
    CHECK_FALSE(store->identity_by_id("id2"));
    CHECK_FALSE(store->identity_by_id("h-one"));
  }
  SECTION("renamed, only to a valid name") {
    CHECK(store->set_name("id1", "Zoë").ok());
    CHECK(store->identity_by_token_hash("h-one")->name == "Zoë");
    CHECK(store->set_name("id1", " padded").code == Code::invalid);
    CHECK(store->identity_by_token_hash("h-one")->name == "Zoë");
    CHECK(store->set_name("ghost", "Ann").code == Code::not_found);
  }
  SECTION("ids and token hashes are unique") {
    CHECK(store->create_identity("id1", "Other", "h-x").code == Code::duplicate);
    CHECK(store->create_identity("id2", "Other", "h-one").code == Code::duplicate);
  }
  SECTION("a player page shows name, ratings and recent games") {
    REQUIRE(store->create_identity("id2", "Bea", "h-two").ok());
    RoomRow row = sample_room("r");
    row.ranked = true;
    row.seats = {"id1", "id2"};
    REQUIRE(store->create_room(row).ok());
    REQUIRE(store->finish_game("r", 1, result({1, 1}, "draw"), 50).ok());
    auto p = store->player("id1");
    REQUIRE(p);
    CHECK((*p)["name"] == "Guest 17");
    CHECK((*p)["ratings"]["mancala-simple"] == Json{{"rating", 1500}, {"games", 1}});
    REQUIRE((*p)["recent"].size() == 1);
    CHECK((*p)["recent"][0]["id"] == "r-1");
    CHECK_FALSE(store->player("nobody"));
  }
}

TEST_CASE("the store keeps only names the name rule accepts, in NFC", "[store][identity]") {
  CHECK_FALSE(validate_name("O'Brien"));
  CHECK_FALSE(validate_name("\u00C9lo\u00EFse"));  // Éloïse, composed
  CHECK(validate_name("E\u0301loi\u0308se"));      // decomposed: normalize before storing
  CHECK(validate_name("<script>"));
  CHECK(validate_name(std::string(25, 'a')));
}
