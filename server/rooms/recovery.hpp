#pragma once
// Recovery at start (R2): every room whose current game is unfinished is read back from the
// store and rebuilt by replaying its record (game, options, set-up, seed, actions) through the
// engine, with its version, seats and identities, commitment, ranked flag, timer and game
// number. A room that cannot be rebuilt (a damaged row, an unknown game, a refused action) is
// logged with its id and the reason and set aside; it stays in the database untouched.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace tanbo::server {

namespace store {
class StoreWorker;
}
class RoomService;
class StoreIdentities;

struct RecoveryReport {
  std::size_t restored = 0;
  std::size_t finished = 0;            // rooms whose last action ended the game but not its row
  std::vector<std::string> set_aside;  // "<room>: <reason>"
};

// Runs on the starting thread, before the network: it waits for the store's answers.
RecoveryReport recover_rooms(store::StoreWorker& worker, RoomService& rooms,
                             const StoreIdentities& identities);

}  // namespace tanbo::server
