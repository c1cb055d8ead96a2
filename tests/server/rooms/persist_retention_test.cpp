// Retention: idle rooms leave memory and the lobby after --retention; the records stay.
#include <catch2/catch.hpp>

#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/eventually.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

std::string create(ProtocolClient& c, const std::string& game) {
  c.send({{"type", "create"}, {"id", "c"}, {"game", game}, {"options", json::object()}});
  std::string room = c.expect("created").at("room");
  state_at(c, 0);
  return room;
}

bool listed(std::uint16_t port, const std::string& room) {
  auto rooms = listed_rooms(port);
  return std::find(rooms.begin(), rooms.end(), room) != rooms.end();
}

// A mancala-simple room of two new players, finished by a resignation (R3); its id.
std::string resigned_room(std::uint16_t port) {
  ProtocolClient a(port), b(port);
  a.hello("Cy");
  b.hello("Di");
  auto room = create(a, "mancala-simple");
  b.send({{"type", "join"}, {"room", room}, {"as", "player"}});
  state_at(b, 1);
  state_at(a, 1);
  a.send({{"type", "resign"}, {"room", room}});
  REQUIRE(state_at(a, 2).at("status") == "finished");
  return room;
}

// Far beyond the 1 s retention these tests set, on a machine however loaded.
constexpr auto kGone = 30s;

}  // namespace

TEST_CASE("retention: a finished room leaves the lobby, a rematch asked keeps it, records stay",
          "[persist][retention]") {
  DataDir dir;
  ServerProcess server(dir, {"--retention", "1"});
  ProtocolClient a(server.port()), b(server.port());
  a.hello("Ana");
  b.hello("Bo");
  auto room = create(a, "mancala-simple");
  b.send({{"type", "join"}, {"room", room}, {"as", "player"}});
  state_at(b, 1);
  state_at(a, 1);
  a.send({{"type", "resign"}, {"room", room}});  // R3: the game ends at once
  REQUIRE(state_at(a, 2).at("status") == "finished");
  state_at(b, 2);
  REQUIRE(listed(server.port(), room));

  SECTION("nobody asks for a rematch: gone after the retention, its record kept") {
    CHECK(eventually([&] { return !listed(server.port(), room); }, kGone));
    auto record = get_json(server.port(), "/api/games/" + room + "-1");
    CHECK(record.at("status") == "finished");
    CHECK(record.contains("seed"));
    a.send({{"type", "join"}, {"room", room}, {"as", "spectator"}});
    CHECK(a.expect("error").at("code") == "no_such_room");
  }
  SECTION("a rematch asked by a player still there keeps the room") {
    a.send({{"type", "rematch"}, {"room", room}});
    state_at(a, 2);
    // A room that finished later, with no rematch asked: once it has left, this one's
    // retention is over too.
    const auto later = resigned_room(server.port());
    CHECK(eventually([&] { return !listed(server.port(), later); }, kGone));
    CHECK(listed(server.port(), room));
    SECTION("and the rematch is journaled as game 2") {
      b.send({{"type", "rematch"}, {"room", room}});
      CHECK(state_at(b, 3).at("status") == "playing");
      CHECK(get_json(server.port(), "/api/games/" + room + "-2").at("status") == "playing");
    }
  }
}

TEST_CASE("retention: a waiting room everyone left is abandoned, and not recovered again",
          "[persist][retention]") {
  DataDir dir;
  std::string left, kept;
  {
    ServerProcess server(dir, {"--retention", "1"});
    ProtocolClient stays(server.port());
    stays.hello("Ana");
    kept = create(stays, "tanbo");
    {
      ProtocolClient goes(server.port());
      goes.hello("Bo");
      left = create(goes, "tsoro");
      goes.ws().close();
    }
    CHECK(eventually([&] { return !listed(server.port(), left); }, kGone));
    CHECK(listed(server.port(), kept));  // its creator is still in it
    REQUIRE(server.terminate() == std::optional<int>(0));
  }
  ServerProcess server(dir, {"--retention", "600"});
  CHECK(listed_rooms(server.port()) == std::vector<std::string>{kept});
}
