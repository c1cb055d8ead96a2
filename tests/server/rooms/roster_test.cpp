// A room's people (server/rooms/roster.hpp): who holds a seat, the seated player's guard, who
// plays again, and the seats as frames and the lobby show them.
#include "server/rooms/roster.hpp"

#include <catch2/catch.hpp>

using namespace tanbo_server;
using namespace tanbo_server::server;

namespace {

Roster::Member seated_member(std::uint64_t peer_id, const std::string& identity,
                             engine::Seat seat) {
  return {{}, peer_id, identity, seat, {}};
}

}  // namespace

TEST_CASE("roster: only a member holding a seat passes the seated guard", "[rooms]") {
  Roster r(2);
  r.seats[0].player = Identity{"p1", "Ann"};
  r.members.push_back(seated_member(7, "p1", 0));
  r.members.push_back(seated_member(8, "p2", engine::kNoSeat));
  REQUIRE(r.seated(7) != nullptr);
  CHECK(r.seated(7)->seat == 0);
  CHECK(r.seated(8) == nullptr);  // a spectator
  CHECK(r.seated(9) == nullptr);  // a stranger
  CHECK(r.member(8) != nullptr);
  CHECK(r.spectators() == 1);
  CHECK(r.here() == std::vector<bool>{true, false});
  CHECK_FALSE(r.remove(8));
  CHECK(r.remove(7));
  CHECK(r.members.empty());
  CHECK_FALSE(r.remove(7));
}

TEST_CASE("roster: seats held, the first free one, full", "[rooms]") {
  Roster r(3);
  CHECK(r.first_free() == 0);
  r.seats[0].player = Identity{"p1", "Ann"};
  r.seats[2].player = cpu_identity(protocol::CpuLevel::mcts);
  CHECK(r.seat_of("p1") == 0);
  CHECK(r.seat_of("cpu:mcts") == 2);
  CHECK(r.seat_of("p2") == engine::kNoSeat);
  CHECK(r.first_free() == 1);
  CHECK_FALSE(r.full());
  r.seats[1].player = Identity{"p2", "Bo"};
  CHECK(r.first_free() == engine::kNoSeat);
  CHECK(r.full());
}

TEST_CASE("roster: the computer always plays again, people when they asked", "[rooms]") {
  Roster r(3);
  r.seats[0].player = Identity{"p1", "Ann"};
  r.seats[1].player = Identity{"p2", "Bo"};
  r.seats[2].player = cpu_identity(protocol::CpuLevel::random);
  CHECK(r.rematch_asked().empty());
  r.seats[1].rematch = true;
  CHECK_FALSE(r.all_rematch());
  CHECK(r.rematch_asked() == std::vector<engine::Seat>{1});
  r.seats[0].rematch = true;
  CHECK(r.all_rematch());
}

TEST_CASE("roster: the seats as shown, a CPU seat without a player, a takeover with both",
          "[rooms]") {
  Roster r(3);
  r.seats[0].player = Identity{"p1", "Ann", "ann"};
  r.seats[0].takeover = true;
  r.seats[1].player = cpu_identity(protocol::CpuLevel::greedy);
  r.members.push_back(seated_member(7, "p1", 0));
  const auto v = r.views(protocol::CpuLevel::mcts);
  REQUIRE(v.size() == 3);
  REQUIRE(v[0].player);
  CHECK(v[0].player->id == "p1");
  CHECK(v[0].cpu);
  CHECK(v[0].level == protocol::CpuLevel::mcts);
  CHECK(v[0].connected);
  CHECK_FALSE(v[1].player);
  CHECK(v[1].cpu);
  CHECK(v[1].level == protocol::CpuLevel::greedy);
  CHECK_FALSE(v[1].connected);
  CHECK(v[2].seat == 2);
  CHECK_FALSE(v[2].player);
  CHECK_FALSE(v[2].cpu);
}

TEST_CASE("roster: CPU identities and their levels", "[rooms]") {
  CHECK(cpu_identity(protocol::CpuLevel::greedy).id == "cpu:greedy");
  CHECK(cpu_level_of("cpu:mcts") == protocol::CpuLevel::mcts);
  CHECK_FALSE(cpu_level_of("cpu:nobody"));
  CHECK_FALSE(cpu_level_of("p1"));
}
