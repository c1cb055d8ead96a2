// Recovery in process, on a SQLite file: the claim that leaves a cluster's rooms to their nodes,
// and one room taken over by id (recover_room).
#include <catch2/catch.hpp>

#include <chrono>
#include <memory>
#include <string>

#include "engine/core/match.hpp"
#include "engine/core/sha256.hpp"
#include "server/identity/store_identities.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/recovery.hpp"
#include "server/rooms/service.hpp"
#include "server/rooms/store_journal.hpp"
#include "server/store/worker.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/store/support.hpp"
#include "tests/server/support/in_process_server.hpp"

using namespace tanbo_server;
using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using store::Json;

namespace {

std::string hash_of(std::string_view token) { return engine::to_hex(engine::sha256(token)); }

// A 2-player room seated by Ana ("pa") and Bo ("pb"), with `moves` actions of a real match logged
// at versions 2.. (version 1 is the game's start, as a room numbers them).
void write_room(store::Store& s, const std::string& id, int moves) {
  store::RoomRow row = store::testing::sample_room(id);
  row.timer = Json::object();
  row.seats = {"pa", "pb"};
  REQUIRE(s.create_room(row).ok());
  store::LoadedRoom head{row, {}, 0};
  engine::Problems problems;
  auto match = engine::Match::start(head.record(), problems);
  REQUIRE(match);
  for (int i = 0; i < moves; ++i) {
    const Json action = match->legal_json().at(0);
    const auto seat = match->game().pending().seat;
    REQUIRE_FALSE(match->act(seat, action));
    REQUIRE(s.append_action(id, 1, i + 2, seat, action).ok());
  }
}

// What a node started on the database before: rooms "playing" (3 moves), "waiting-ish" (none),
// "over" (finished). Ana's identity is in the store; Bo's is written by another node later.
struct Database {
  store::testing::TempDir dir;
  Database() {
    auto s = store::testing::open_store(dir.db());
    REQUIRE(s->create_identity("pa", "Ana", hash_of("token a")).ok());
    write_room(*s, "playing", 3);
    write_room(*s, "fresh", 0);
    write_room(*s, "over", 1);
    REQUIRE(s->finish_game("over", 1, Json{{"places", {1, 2}}, {"reason", "resign"}}, 5).ok());
  }
};

// A node on that database: its store, identities, rooms and a port for protocol clients.
struct Node {
  explicit Node(const Database& db)
      : worker(std::make_shared<store::StoreWorker>(store::testing::open_store(db.dir.db()))),
        identities(std::make_shared<StoreIdentities>(worker, true)),
        rooms(std::make_shared<RoomService>(options())),
        server(loopback_config(), rooms) {}
  ~Node() {
    server.server.stop(std::chrono::seconds(2));
    rooms->shutdown();
    worker->stop();
  }
  ServiceOptions options() const {
    auto o = service_options(loopback_config());
    o.identities = identities;
    o.journal = std::make_shared<StoreJournal>(worker);
    return o;
  }
  std::optional<protocol::RoomSummary> listed(const std::string& room) const {
    for (auto& s : rooms->lobby().list(std::nullopt))
      if (s.room == room) return s;
    return std::nullopt;
  }

  std::shared_ptr<store::StoreWorker> worker;
  std::shared_ptr<StoreIdentities> identities;
  std::shared_ptr<RoomService> rooms;
  InProcessServer server;
};

}  // namespace

TEST_CASE("recovery: a room the claim refuses is left to another node", "[recovery][cluster]") {
  Database db;
  Node node(db);
  auto report = recover_rooms(*node.worker, *node.rooms, *node.identities,
                              [](const std::string& room) { return room != "fresh"; });
  CHECK(report.restored == 1);
  CHECK(report.left_to_others == 1);
  CHECK(report.set_aside.empty());
  CHECK(node.rooms->lobby().find("playing"));
  CHECK_FALSE(node.rooms->lobby().find("fresh"));
  CHECK(node.rooms->lobby().size() == 1);

  SECTION("its node dies, and this one takes it over") {
    CHECK(recover_room(*node.worker, *node.rooms, *node.identities, "fresh"));
    CHECK(node.rooms->lobby().find("fresh"));
    CHECK(node.rooms->lobby().size() == 2);
  }
}

TEST_CASE("recovery: without a claim every room is restored", "[recovery][cluster]") {
  Database db;
  Node node(db);
  auto report = recover_rooms(*node.worker, *node.rooms, *node.identities);
  CHECK(report.restored == 2);
  CHECK(report.left_to_others == 0);
  CHECK(node.rooms->lobby().size() == 2);
}

TEST_CASE("recover_room restores one room with its version and seats", "[recovery][cluster]") {
  Database db;
  Node node(db);
  // Bo was made by another node after this one started: his name comes from the store.
  REQUIRE(store::testing::open_store(db.dir.db())
              ->create_identity("pb", "Bo", hash_of("token b"))
              .ok());

  REQUIRE(recover_room(*node.worker, *node.rooms, *node.identities, "playing"));
  CHECK(node.rooms->lobby().size() == 1);  // that room only
  auto listed = node.listed("playing");
  REQUIRE(listed);
  CHECK(listed->status == protocol::RoomStatus::playing);
  REQUIRE(listed->seats.size() == 2);
  CHECK(listed->seats[0].player == protocol::Player{"pa", "Ana"});
  CHECK(listed->seats[1].player == protocol::Player{"pb", "Bo"});

  SECTION("at its version: the game start and three actions") {
    ProtocolClient ana(node.server.port());
    auto welcome = ana.hello("", "token a");
    CHECK(welcome.at("seats") == json::array({{{"room", "playing"}, {"seat", 0}}}));
    ana.send({{"type", "join"}, {"room", "playing"}, {"as", "player"}});
    CHECK(state_at(ana, 0).at("version") == 4);
  }
  SECTION("asked again, it is there already: true, and no second copy") {
    auto room = node.rooms->lobby().find("playing");
    CHECK(recover_room(*node.worker, *node.rooms, *node.identities, "playing"));
    CHECK(node.rooms->lobby().find("playing") == room);
    CHECK(node.rooms->lobby().size() == 1);
  }
  SECTION("an unknown or a finished room: false, nothing restored") {
    CHECK_FALSE(recover_room(*node.worker, *node.rooms, *node.identities, "ghost"));
    CHECK_FALSE(recover_room(*node.worker, *node.rooms, *node.identities, "over"));
    CHECK(node.rooms->lobby().size() == 1);
  }
}

// A node's stop runs while its takeovers may go on: a room rebuilt then would arm timers on
// threads being joined, and the stop would wait for them.
TEST_CASE("recover_room once the rooms have shut down: false, and nothing restored",
          "[recovery][cluster]") {
  Database db;
  Node node(db);
  node.rooms->shutdown();
  CHECK_FALSE(recover_room(*node.worker, *node.rooms, *node.identities, "playing"));
  CHECK(node.rooms->lobby().size() == 0);
}
