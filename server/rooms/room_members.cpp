// A room's members: joining, leaving, resuming and disconnecting, and the one guard of what only a
// seated player may ask.
#include "server/rooms/room.hpp"

#include "server/rooms/lobby.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;

void Room::do_join(const Peer& peer, const Identity& who, const protocol::Join& j, const Id& re,
                   protocol::Frame created, std::vector<std::string> mutes) {
  if (refusing()) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  engine::Seat seat = engine::kNoSeat;
  bool taken_now = false;
  if (j.as == protocol::Role::player) {
    seat = roster_.seat_of(who.id);
    if (seat == engine::kNoSeat) {  // a new seat: the one asked for, or the first free one
      if (j.seat) {
        if (*j.seat < 0 || *j.seat >= setup_.players)
          return refuse(peer, ErrorCode::bad_message,
                        "seat " + std::to_string(*j.seat) + " does not exist", re);
        if (roster_.seats[std::size_t(*j.seat)].player)
          return refuse(peer, ErrorCode::seat_taken,
                        "seat " + std::to_string(*j.seat) + " is taken", re);
        seat = *j.seat;
      } else {
        seat = roster_.first_free();
        if (seat == engine::kNoSeat)
          return refuse(peer, ErrorCode::room_full, "every seat is taken", re);
      }
      taken_now = true;
    }
  }
  auto finish = [this, peer, who, seat, j, re, created, mutes = std::move(mutes)] {
    bool seats_moved = seat != engine::kNoSeat;
    Member* m = roster_.member(peer->id());
    if (m) {
      seats_moved = seats_moved || m->seat != engine::kNoSeat;
      m->seat = seat;
      m->mutes = mutes;
    } else {
      roster_.members.push_back(Member{peer, peer->id(), who.id, seat, mutes, peer->protocol()});
      m = &roster_.members.back();
    }
    // The answer leaves with the joiner's state: no reply to a later request comes between.
    auto answer = created;
    if (!answer) {
      const auto chat = chat_for(*m);
      answer = protocol::share(protocol::joined(
          re, id(), j.as, seat == engine::kNoSeat ? std::nullopt : std::optional(seat), &chat));
    }
    if (seats_moved) return after_change(peer->id(), std::move(answer));
    // A spectator arriving changes no seat: the joiner alone gets the state; the others see the
    // new count in the room's next state, so a crowd joining costs one state per arrival.
    spectators_changed();
    send_current_state(*roster_.member(peer->id()), std::move(answer));
  };
  if (!taken_now) return finish();

  std::vector<JournalEntry> entries;
  entries.push_back(take_seat(seat, who));
  if (roster_.full() && !match_) {
    if (!start_game(setup_.options))  // the room is broken; the journal never saw the seat
      return refuse(peer, ErrorCode::internal, "the game did not start", re);
    entries.back().version = version_;
  }
  journal(std::move(entries), finish, {peer, re});
}

void Room::do_leave(const Peer& peer, const Id& re) {
  const bool seated = roster_.remove(peer->id());
  peer->send(protocol::share(protocol::left(re, id())));
  // R3: leaving is not resigning; the seat stays the player's.
  seated ? after_change() : spectators_changed();
}

void Room::do_resume(const Peer& peer, const protocol::Resume& r, const Id& re) {
  const Member* m = roster_.member(peer->id());
  Member once{peer, peer->id(), {}, engine::kNoSeat, {}, peer->protocol()};
  if (!m) m = &once;
  std::vector<protocol::Step> steps;
  const bool covered = frames_.steps_after(r.version, version_, steps, m->protocol);
  const auto chat = chat_for(*m, r.chat_players, r.chat_spectators);
  send_current_state(
      *m, protocol::share(protocol::resumed(re, id(), version_, steps, !covered, &chat)));
}

void Room::do_disconnect(std::uint64_t peer_id) {
  auto before = roster_.members.size();
  const bool seated = roster_.remove(peer_id);
  if (seated) return after_change();
  if (roster_.members.size() != before) spectators_changed();
}

// Only the spectator count moved: the lobby lists it and retention may start, but no member gets
// a frame for it (the room's next state carries it).
void Room::spectators_changed() {
  publish();
  check_retention();
}

const Room::Member* Room::seated(const Peer& peer, const Id& re) const {
  if (refusing()) {
    refuse(peer, ErrorCode::internal, "the room has failed", re);
    return nullptr;
  }
  const Member* m = roster_.seated(peer->id());
  if (!m) refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
  return m;
}

}  // namespace tanbo_server::server
