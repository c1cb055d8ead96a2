#pragma once
// One game room: the single writer of its state, on its own strand. Sessions post requests to it;
// it owns the Match (null while seats are free), the seats, the members (players' and spectators'
// connections), the version, the last steps for `resume`, and the seed behind its commitment (R1).
// Every change goes to the journal first and is broadcast once the journal says it is durable;
// requests arriving meanwhile wait in order on the strand (never refused for it).
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/strand.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "protocol/client.hpp"
#include "protocol/server.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/journal.hpp"

namespace tanbo::server {

class Lobby;

struct RoomSettings {
  std::size_t history = 64;     // steps kept for resume
  bool alternate_first = true;  // R6: each rematch moves the first seat one on
};

struct RoomSetup {
  std::string id;
  const engine::GameInfo* info = nullptr;
  engine::Json options;  // as created (validated by the engine), `first` as given
  engine::Json setup;
  int players = 2;
  bool ranked = false;
  Identity owner;
  // The turn timer and takeover settings, journaled with the room and kept by the store as
  // RoomRow.timer; {} means no timer. Its keys belong to the room's timer code.
  engine::Json timer = engine::Json::object();
};

class Room final : public std::enable_shared_from_this<Room> {
 public:
  using Peer = std::shared_ptr<WsPeer>;
  using Id = protocol::Id;

  Room(boost::asio::any_io_executor ex, RoomSetup setup, RoomSettings settings,
       std::shared_ptr<Lobby> lobby, std::shared_ptr<RoomJournal> journal);

  const std::string& id() const { return setup_.id; }
  const std::string& owner() const { return setup_.owner.id; }

  // Each call is posted to the room's strand; replies and states go to `peer`.
  void open(Peer peer, Identity who, Id re);  // journals the room, then seats the creator at 0
  void join(Peer peer, Identity who, protocol::Join j, Id re);
  void act(Peer peer, protocol::Act a, Id re);
  void resign(Peer peer, Id re);
  void rematch(Peer peer, Id re);
  void leave(Peer peer, Id re);
  void resume(Peer peer, protocol::Resume r, Id re);
  void disconnect(std::uint64_t peer_id);

 private:
  struct Seat {
    std::optional<Identity> player;
    bool rematch = false;
  };
  // Rooms do not own connections: a closed one simply stops receiving.
  struct Member {
    std::weak_ptr<WsPeer> peer;
    std::uint64_t peer_id = 0;
    std::string identity;
    engine::Seat seat = engine::kNoSeat;  // kNoSeat: a spectator
  };

  void enqueue(std::function<void()> fn);
  void drain();
  // Appends entries in order, then runs `then` on the strand; a failed append breaks the room.
  void journal(std::vector<JournalEntry> entries, std::function<void()> then);

  void do_join(const Peer& peer, const Identity& who, const protocol::Join& j, const Id& re);
  void do_act(const Peer& peer, const protocol::Act& a, const Id& re);
  void do_resign(const Peer& peer, const Id& re);
  void do_rematch(const Peer& peer, const Id& re);
  void do_leave(const Peer& peer, const Id& re);
  void do_resume(const Peer& peer, const protocol::Resume& r, const Id& re);
  void do_disconnect(std::uint64_t peer_id);

  bool start_game(engine::Json options);         // a new Match from a fresh seed; one step
  void step(std::vector<JournalEntry> entries);  // journal, then refresh and broadcast
  void after_change();                           // refresh, broadcast, publish to the lobby
  void refresh();                                // builds the state frames once
  void send_state(const Member& m) const;
  void refuse(const Peer& peer, protocol::ErrorCode code, std::string message, const Id& re) const;
  void publish();
  Member* member(std::uint64_t peer_id);
  protocol::RoomStatus status() const;
  std::vector<protocol::SeatView> seat_views() const;
  int spectators() const;

  boost::asio::strand<boost::asio::any_io_executor> strand_;
  RoomSetup setup_;
  RoomSettings settings_;
  std::shared_ptr<Lobby> lobby_;
  std::shared_ptr<RoomJournal> journal_;

  std::unique_ptr<engine::Match> match_;
  engine::Seed seed_{};
  std::string commit_;
  std::vector<Seat> seats_;
  std::vector<Member> members_;
  std::uint64_t version_ = 0;
  std::int64_t step_at_ms_ = 0;  // wall clock (ms since the epoch) of the last step: clocks start there
  std::deque<protocol::Step> history_;
  protocol::Frame frame_;        // the state every member gets
  protocol::Frame legal_frame_;  // the same with `legal`, for the deciding seat
  engine::Seat deciding_ = engine::kNoSeat;

  bool opened_ = false;
  bool busy_ = false;    // a journal append is in flight
  bool broken_ = false;  // the journal failed: the room refuses everything (internal)
  std::deque<std::function<void()>> backlog_;
};

}  // namespace tanbo::server
