#pragma once
// A room's people: who holds which seat (a person or the computer, away or asking for a new game)
// and which connections are in the room, players' and spectators'. Plain data, kept on the
// room's strand; the room decides what changes it.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.hpp"
#include "protocol/client.hpp"
#include "protocol/server.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"

namespace tanbo_server::server {

// CPU seats are held by these identities ("cpu:" and a level): journaled as any seat, so a room
// brought back by recovery knows them by their id alone.
Identity cpu_identity(protocol::CpuLevel level);
std::optional<protocol::CpuLevel> cpu_level_of(const std::string& identity_id);

struct Roster {
  struct Seat {
    std::optional<Identity> player;
    bool rematch = false;
    bool takeover = false;  // the player is away past the grace: the CPU plays the seat meanwhile
  };
  // Rooms do not own connections: a closed one simply stops receiving.
  struct Member {
    std::weak_ptr<WsPeer> peer;
    std::uint64_t peer_id = 0;
    std::string identity;
    engine::Seat seat = engine::kNoSeat;        // kNoSeat: a spectator
    std::vector<std::string> mutes;             // sorted: whose chat lines it does not get
    int protocol = protocol::kProtocolVersion;  // the version whose frames it gets
  };

  explicit Roster(int players) : seats(std::size_t(players)) {}

  Member* member(std::uint64_t peer_id);
  // The member at this connection when it holds a seat; null for a spectator or a stranger.
  const Member* seated(std::uint64_t peer_id) const;
  bool remove(std::uint64_t peer_id);  // true when the member held a seat
  int spectators() const;
  // Some member speaks version 1 (its frames are built too).
  bool any_v1() const;
  // Per seat: one of its player's connections is in the room.
  std::vector<bool> here() const;

  engine::Seat seat_of(const std::string& identity) const;  // kNoSeat: it holds none
  engine::Seat first_free() const;                          // kNoSeat: every seat is taken
  bool full() const;
  // Every seat plays again: its player asked, or the computer holds it.
  bool all_rematch() const;
  std::vector<engine::Seat> rematch_asked() const;
  // The seats as frames and the lobby show them: a CPU seat shows no player, a seat taken over
  // shows its player and the CPU at `takeover`.
  std::vector<protocol::SeatView> views(protocol::CpuLevel takeover) const;

  std::vector<Seat> seats;
  std::vector<Member> members;
};

}  // namespace tanbo_server::server
