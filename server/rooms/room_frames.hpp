#pragma once
// What a room sends, built once as text and shared by every member: the state frame, the
// deciding seat's copy with its legal list, and the last steps' events kept for `resume`. The
// frames are rebuilt on every change; the seats' text only when the seats moved.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "protocol/server.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/roster.hpp"

namespace tanbo::server {

class RoomFrames {
 public:
  explicit RoomFrames(std::size_t history) : history_size_(history) {}

  // The frames of `v` with `seats` (v.seats is set here), `match`'s state and last events; the
  // deciding seat's frame carries `match`'s legal list. `match` is null before the game starts.
  void build(protocol::StateView v, std::vector<protocol::SeatView> seats,
             const engine::Match* match);
  bool built() const { return frame_ != nullptr; }
  int spectators() const { return spectators_; }  // the count the frames show
  // The state `m` gets, after `answer` when given, in one post (WsPeer::send_both). Before the
  // first build, the answer alone.
  void send(const Roster::Member& m, protocol::Frame answer = nullptr) const;

  // Keeps the events last built as the step to `version`, once per version, the last `history`.
  void keep(std::uint64_t version);
  // The kept steps after `since` for a room at `version`; false when they do not reach back that
  // far (the client then takes the state as it is).
  bool steps_after(std::uint64_t since, std::uint64_t version,
                   std::vector<protocol::Step>& steps) const;

 private:
  protocol::Frame frame_;        // the state every member gets
  protocol::Frame legal_frame_;  // the same with `legal`, for the deciding seat
  engine::Seat deciding_ = engine::kNoSeat;
  int spectators_ = 0;
  std::string events_;  // the events frame_ shows, serialized once for it and history_
  std::vector<protocol::SeatView> seats_;
  std::string seats_text_;
  // The steps kept for resume, their events as JSON text: a tree of std::map nodes per step made
  // these steps most of a playing room's memory.
  struct KeptStep {
    std::uint64_t version;
    std::string events;
  };
  std::deque<KeptStep> history_;
  std::size_t history_size_;
};

}  // namespace tanbo::server
