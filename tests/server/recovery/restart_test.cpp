// Restarts that keep everything: SIGTERM, identities, waiting rooms, the lobby over HTTP, a
// damaged room row that is set aside while the others come back; kill -9 under --durability full,
// and one node on PostgreSQL.
#include <SQLiteCpp/Database.h>

#include <catch2/catch.hpp>
#include <thread>

#include "tests/server/recovery/server_process.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

std::string create(ProtocolClient& c, const std::string& game) {
  c.send({{"type", "create"}, {"id", "c"}, {"game", game}, {"options", json::object()}});
  std::string room = c.expect("created").at("room");
  state_at(c, 0);
  return room;
}

// A few random moves; the version reached.
std::uint64_t play_some(ProtocolClient& a, ProtocolClient& b, const std::string& room, json state_a,
                        json state_b, int moves) {
  std::uint64_t v = state_a.at("version");
  for (int i = 0; i < moves && state_a.at("status") == "playing"; ++i) {
    auto& mover = state_a.contains("legal") ? a : b;
    const json& legal = state_a.contains("legal") ? state_a.at("legal") : state_b.at("legal");
    mover.send({{"type", "act"}, {"room", room}, {"version", v}, {"action", legal.at(0)}});
    state_a = state_at(a, v + 1);
    state_b = state_at(b, v + 1);
    v = state_a.at("version");
  }
  return v;
}

}  // namespace

TEST_CASE("a restart with SIGTERM keeps identities, names, seats, rooms and versions",
          "[persist][recovery][restart]") {
  DataDir dir;
  std::string waiting, playing;
  std::uint64_t version = 0;
  Guest ana, bo;
  {
    ServerProcess server(dir);
    ana = guest(server.port(), "Ana");
    bo = guest(server.port(), "Bo");
    waiting = create(*ana.client, "mancala-simple");
    playing = create(*ana.client, "tsoro");
    bo.client->send({{"type", "join"}, {"room", playing}, {"as", "player"}});
    auto sb = state_at(*bo.client, 1);
    auto sa = state_at(*ana.client, 1);
    version = play_some(*ana.client, *bo.client, playing, sa, sb, 5);
    REQUIRE(version == 6);
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  ServerProcess server(dir);
  CHECK_THAT(server.log(), Catch::Contains("2 rooms restored"));

  SECTION("a token issued before the restart brings its identity and name back") {
    ProtocolClient c(server.port());
    auto w = c.hello("", ana.token);
    CHECK(w.at("player").at("id") == ana.id);
    CHECK(w.at("player").at("name") == "Ana");
    SECTION("with every seat it holds") {
      CHECK(w.at("seats").size() == 2);
      const auto& seats = w.at("seats");
      CHECK(std::count(seats.begin(), seats.end(), json{{"room", waiting}, {"seat", 0}}) == 1);
      CHECK(std::count(seats.begin(), seats.end(), json{{"room", playing}, {"seat", 0}}) == 1);
    }
  }
  SECTION("a new name given with the token is kept across the next restart") {
    {
      ProtocolClient c(server.port());
      CHECK(c.hello("Bo Two", bo.token).at("player").at("name") == "Bo Two");
    }
    REQUIRE(server.terminate() == std::optional<int>(0));
    ServerProcess again(dir);
    ProtocolClient c(again.port());
    CHECK(c.hello("", bo.token).at("player").at("name") == "Bo Two");
  }
  SECTION("an unknown token is still refused") {
    ProtocolClient c(server.port());
    c.send({{"type", "hello"}, {"token", std::string(64, 'a')}});
    CHECK(c.expect("error").at("code") == "bad_token");
  }
  SECTION("the lobby lists both rooms, over HTTP too") {
    auto rooms = get_json(server.port(), "/api/rooms").at("rooms");
    REQUIRE(rooms.size() == 2);
    for (const auto& r : rooms) {
      if (r.at("room") == waiting) CHECK(r.at("status") == "waiting");
      if (r.at("room") == playing) CHECK(r.at("status") == "playing");
      CHECK(r.at("seats").at(0).at("player").at("id") == ana.id);
    }
    SECTION("filtered by game") {
      auto only = get_json(server.port(), "/api/rooms?game=tsoro").at("rooms");
      REQUIRE(only.size() == 1);
      CHECK(only[0].at("room") == playing);
      CHECK(http_get(server.port(), "/api/rooms?game=chess").status == 400);
    }
  }
  SECTION("the playing room is at its version, with the same commitment, and plays on") {
    ProtocolClient a(server.port()), b(server.port());
    a.hello("", ana.token);
    b.hello("", bo.token);
    a.send({{"type", "join"}, {"room", playing}, {"as", "player"}});
    auto sa = state_at(a, 0);
    CHECK(sa.at("version") == version);
    b.send({{"type", "join"}, {"room", playing}, {"as", "player"}});
    auto sb = state_at(b, 0);
    sa = state_at(a, version);
    CHECK(play_some(a, b, playing, sa, sb, 3) == version + 3);
    auto record = get_json(server.port(), "/api/games/" + playing + "-1");
    CHECK(record.at("actions").size() == 8);
    CHECK(record.at("commit") == sa.at("commit"));
  }
  SECTION("the waiting room takes its second player and starts") {
    ProtocolClient b(server.port());
    b.hello("", bo.token);
    b.send({{"type", "join"}, {"room", waiting}, {"as", "player"}});
    auto s = state_at(b, 1);
    CHECK(s.at("status") == "playing");
  }
  SECTION("a room created after the restart gets an id of its own and is journaled") {
    ProtocolClient c(server.port());
    c.hello("Cy");
    auto room = create(c, "tanbo");
    CHECK(room != waiting);
    CHECK(room != playing);
    CHECK(listed_rooms(server.port()).size() == 3);
  }
}

TEST_CASE("a room row that cannot be read is set aside with a log line, the others come back",
          "[persist][recovery][corrupt]") {
  DataDir dir;
  std::string good, bad;
  {
    ServerProcess server(dir);
    auto ana = guest(server.port(), "Ana");
    good = create(*ana.client, "tanbo");
    bad = create(*ana.client, "steere-tanbo");
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  const std::string broken = GENERATE(as<std::string>{}, "options", "chess", "refused");
  CAPTURE(broken);
  {
    SQLite::Database db(dir.db().string(), SQLite::OPEN_READWRITE);
    if (broken == "options")  // not JSON
      db.exec("UPDATE rooms SET options = '{not json' WHERE id = '" + bad + "'");
    if (broken == "chess")  // a game this server does not know
      db.exec("UPDATE rooms SET game = 'chess' WHERE id = '" + bad + "'");
    if (broken == "refused") {  // every seat taken, so the game started; then a bad action
      db.exec("UPDATE seats SET identity = 'x' WHERE room = '" + bad + "'");
      db.exec("INSERT INTO actions (room, version, game_no, seat, action) VALUES ('" + bad +
              "', 2, 1, 0, '\"no such move\"')");
    }
  }
  ServerProcess server(dir);
  auto line = server.process().wait_for_line("set aside", std::chrono::seconds(5));
  REQUIRE(line);
  CHECK_THAT(*line, Catch::Contains(bad) && Catch::Contains(broken));
  CHECK(listed_rooms(server.port()) == std::vector<std::string>{good});
  // The server serves: a new guest creates a room.
  auto cy = guest(server.port(), "Cy");
  create(*cy.client, "tsoro");
  CHECK(listed_rooms(server.port()).size() == 2);
  CHECK(get_json(server.port(), "/healthz").at("status") == "ok");
}

TEST_CASE("a finished room within its retention comes back after a restart, rematch included",
          "[persist][recovery][restart]") {
  DataDir dir;
  std::string room;
  Guest ana, bo;
  {
    ServerProcess server(dir);
    ana = guest(server.port(), "Ana");
    bo = guest(server.port(), "Bo");
    room = create(*ana.client, "tsoro");
    bo.client->send({{"type", "join"}, {"room", room}, {"as", "player"}});
    state_at(*bo.client, 1);
    state_at(*ana.client, 1);
    ana.client->send({{"type", "resign"}, {"room", room}});
    REQUIRE(state_at(*ana.client, 2).at("status") == "finished");
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  ServerProcess server(dir);
  ProtocolClient a(server.port()), b(server.port());
  a.hello("", ana.token);
  b.hello("", bo.token);
  a.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  REQUIRE(a.expect("joined").at("seat") == 0);
  auto s = a.expect("state");
  CHECK(s.at("status") == "finished");
  CHECK(s.at("version") == 2);
  CHECK(s.at("result").at("reason") == "resigned");
  CHECK(s.contains("seed"));  // R1: revealed, as before the restart
  b.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  b.expect("joined");
  b.expect("state");
  a.send({{"type", "rematch"}, {"id", 2}, {"room", room}});
  b.send({{"type", "rematch"}, {"id", 2}, {"room", room}});
  auto next = state_at(a, 3);
  CHECK(next.at("status") == "playing");
  SECTION("while one past its retention stays in the records only") {
    // --retention 1: the room finished a moment ago, so the next start leaves it behind.
    a.send({{"type", "resign"}, {"room", room}});
    REQUIRE(state_at(a, 4).at("status") == "finished");
    REQUIRE(server.terminate() == std::optional<int>(0));
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
    ServerProcess later(dir, {"--retention", "1"});
    ProtocolClient c(later.port());
    c.hello("", ana.token);
    c.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
    CHECK(c.expect("error").at("code") == "no_such_room");
    CHECK(get_json(later.port(), "/api/games/" + room + "-2").at("result").at("reason") ==
          "resigned");
  }
}

TEST_CASE("SIGTERM while actions are being stored: each state reaches its players before close",
          "[persist][recovery][restart]") {
  DataDir dir;
  constexpr int kRooms = 8;
  struct Table {
    Guest a, b;
    std::string room;
    json state_a, state_b;
  };
  std::vector<Table> tables(kRooms);
  std::vector<std::uint64_t> acted(kRooms);
  {
    // --durability full: every commit waits for the disk, so the stop meets writes in flight.
    ServerProcess server(dir, {"--durability", "full"});
    for (auto& t : tables) {
      t.a = guest(server.port(), "Ana");
      t.b = guest(server.port(), "Bo");
      t.room = create(*t.a.client, "tsoro");
      t.b.client->send({{"type", "join"}, {"room", t.room}, {"as", "player"}});
      t.state_b = state_at(*t.b.client, 1);
      t.state_a = state_at(*t.a.client, 1);
    }
    for (std::size_t i = 0; i < tables.size(); ++i) {
      auto& t = tables[i];
      auto& mover = t.state_a.contains("legal") ? *t.a.client : *t.b.client;
      const json& legal =
          t.state_a.contains("legal") ? t.state_a.at("legal") : t.state_b.at("legal");
      mover.send(
          {{"type", "act"}, {"id", 7}, {"room", t.room}, {"version", 1}, {"action", legal.at(0)}});
    }
    server.process().signal(SIGTERM);
    for (std::size_t i = 0; i < tables.size(); ++i) {
      // Each player's connection: the move's state (or, had it come too late to be taken, its
      // refusal), then the close frame; never a close with the move stored but not shown.
      for (auto* c : {tables[i].a.client.get(), tables[i].b.client.get()}) {
        std::uint64_t seen = 1;
        for (;;) {
          auto f = c->ws().read();
          if (f.got != WsClient::Got::text) break;
          auto m = json::parse(f.text);
          if (m.at("type") == "state") seen = std::max<std::uint64_t>(seen, m.at("version"));
        }
        acted[i] = std::max(acted[i], seen);
      }
    }
    REQUIRE(server.process().wait(std::chrono::seconds(10)) == std::optional<int>(0));
  }
  ServerProcess server(dir);
  for (std::size_t i = 0; i < tables.size(); ++i) {
    ProtocolClient c(server.port());
    c.hello("", tables[i].a.token);
    c.send({{"type", "join"}, {"id", 1}, {"room", tables[i].room}, {"as", "player"}});
    c.expect("joined");
    CAPTURE(i);
    // What was stored is what the players saw.
    CHECK(c.expect("state").at("version") == acted[i]);
  }
}

TEST_CASE("durability full: every move seen, a finished game and an identity survive kill -9",
          "[persist][recovery][durability]") {
  DataDir dir;
  Guest ana, bo, cy, di;
  std::string finished, playing;
  std::uint64_t version = 0;
  {
    ServerProcess server(dir, {"--durability", "full"});
    ana = guest(server.port(), "Ana");
    bo = guest(server.port(), "Bo");
    finished = create(*ana.client, "mancala-simple");
    bo.client->send({{"type", "join"}, {"room", finished}, {"as", "player"}});
    state_at(*bo.client, 1);
    state_at(*ana.client, 1);
    ana.client->send({{"type", "resign"}, {"room", finished}});  // R3: the game ends at once
    REQUIRE(state_at(*ana.client, 2).at("status") == "finished");
    cy = guest(server.port(), "Cy");
    di = guest(server.port(), "Di");
    playing = create(*cy.client, "tsoro");
    di.client->send({{"type", "join"}, {"room", playing}, {"as", "player"}});
    const json state_di = state_at(*di.client, 1);
    const json state_cy = state_at(*cy.client, 1);
    version = play_some(*cy.client, *di.client, playing, state_cy, state_di, 6);
    REQUIRE(version == 7);  // every move acknowledged to both: none in flight at the kill
    server.kill();
  }
  ServerProcess server(dir, {"--durability", "full"});
  ProtocolClient c(server.port());
  CHECK(c.hello("", cy.token).at("player").at("name") == "Cy");
  c.send({{"type", "join"}, {"id", 1}, {"room", playing}, {"as", "player"}});
  c.expect("joined");
  CHECK(c.expect("state").at("version") == version);
  CHECK(get_json(server.port(), "/api/games/" + playing + "-1").at("actions").size() == 6);
  const json record = get_json(server.port(), "/api/games/" + finished + "-1");
  CHECK(record.at("status") == "finished");
  CHECK(record.at("result").at("reason") == "resigned");
}

TEST_CASE("one node on PostgreSQL: a room played, the server restarted, the room plays on",
          "[persist][recovery][restart][postgres]") {
  namespace st = tanbo_server::server::store::testing;
  if (st::unavailable(st::Backend::postgres)) return;
  DataDir dir;
  const std::string store = st::PgCluster::get().fresh_database();
  Guest ana, bo;
  std::string room;
  std::uint64_t version = 0;
  {
    ServerProcess server(dir, {"--store", store});
    ana = guest(server.port(), "Ana");
    bo = guest(server.port(), "Bo");
    room = create(*ana.client, "mancala-simple");
    bo.client->send({{"type", "join"}, {"room", room}, {"as", "player"}});
    const json state_bo = state_at(*bo.client, 1);
    const json state_ana = state_at(*ana.client, 1);
    version = play_some(*ana.client, *bo.client, room, state_ana, state_bo, 5);
    REQUIRE(version == 6);
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  ServerProcess server(dir, {"--store", store});
  const auto rooms = listed_rooms(server.port());
  CHECK(std::find(rooms.begin(), rooms.end(), room) != rooms.end());
  ProtocolClient a(server.port()), b(server.port());
  CHECK(a.hello("", ana.token).at("player").at("name") == "Ana");
  b.hello("", bo.token);
  a.send({{"type", "join"}, {"room", room}, {"as", "player"}});
  auto sa = state_at(a, 0);
  CHECK(sa.at("version") == version);
  b.send({{"type", "join"}, {"room", room}, {"as", "player"}});
  auto sb = state_at(b, 0);
  sa = state_at(a, version);
  CHECK(play_some(a, b, room, sa, sb, 3) == version + 3);
  CHECK(get_json(server.port(), "/api/games/" + room + "-1").at("actions").size() == 8);
}
