#pragma once
// Recovery at start (R2): every room whose current game is unfinished is read back from the
// store and rebuilt by replaying its record (game, options, set-up, seed, actions) through the
// engine, with its version, seats and identities, commitment, ranked flag, timer and game
// number. A room that cannot be rebuilt (a damaged row, an unknown game, a refused action) is
// logged with its id and the reason and set aside; it stays in the database untouched.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tanbo_server::server {

namespace store {
class StoreWorker;
}
class RoomService;
class StoreIdentities;

struct RecoveryReport {
  std::size_t restored = 0;
  std::size_t finished = 0;            // rooms whose last action ended the game but not its row
  std::vector<std::string> set_aside;  // "<room>: <reason>"
  std::size_t left_to_others = 0;      // rooms the claim refused
};

// Asked before each room is rebuilt: false leaves it to another node (a cluster's rooms are
// each run by one node). Empty: every room.
using ClaimRoom = std::function<bool(const std::string& room)>;

// Runs on the starting thread, before the network: it waits for the store's answers.
RecoveryReport recover_rooms(store::StoreWorker& worker, RoomService& rooms,
                             const StoreIdentities& identities);
RecoveryReport recover_rooms(store::StoreWorker& worker, RoomService& rooms,
                             const StoreIdentities& identities, const ClaimRoom& claim);
// One room, by id (a cluster node taking over a room): true when it was restored. Waits for
// the store; call from a thread that may wait (never a room's strand or the store's thread).
bool recover_room(store::StoreWorker& worker, RoomService& rooms, const StoreIdentities& identities,
                  const std::string& id);

}  // namespace tanbo_server::server
