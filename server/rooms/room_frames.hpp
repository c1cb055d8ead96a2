#pragma once
// What a room sends, built once as text and shared by every member: the state frame, the
// deciding seat's copy with its legal list, and the last steps' events kept for `resume`. The
// frames are rebuilt on every change; the seats' text only when the seats moved. A game's names
// differ between protocol versions (docs/protocol-changelog.md): the frames of version 1 are
// built too, once per change as well, only while a member speaks it and only when they differ.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/core/match.hpp"
#include "protocol/server.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/roster.hpp"

namespace tanbo_server::server {

class RoomFrames {
 public:
  explicit RoomFrames(std::size_t history) : history_size_(history) {}

  // The frames of `v` with `seats` (v.seats is set here), `match`'s state and last events; the
  // deciding seat's frame carries `match`'s legal list. `match` is null before the game starts.
  // `v1`: version 1's frames too.
  void build(protocol::StateView v, std::vector<protocol::SeatView> seats,
             const engine::Match* match, bool v1);
  bool built() const { return current_.state != nullptr; }
  // The frames a member speaking `protocol` gets were built at the last build.
  bool built_for(int protocol) const { return protocol != 1 || v1_.state != nullptr; }
  int spectators() const { return spectators_; }  // the count the frames show
  // The state `m` gets, in its version, after `answer` when given, in one post
  // (WsPeer::send_both). Before the first build, the answer alone.
  void send(const Roster::Member& m, protocol::Frame answer = nullptr) const;

  // Keeps the events last built as the step to `version`, once per version, the last `history`.
  void keep(std::uint64_t version);
  // The kept steps after `since` for a room at `version`, in `protocol`'s names; false when they
  // do not reach back that far (the client then takes the state as it is).
  bool steps_after(std::uint64_t since, std::uint64_t version, std::vector<protocol::Step>& steps,
                   int protocol) const;

 private:
  struct Frames {
    protocol::Frame state;  // the state every member gets
    protocol::Frame legal;  // the same with `legal`, for the deciding seat
  };
  // One version's frames, its state and events already written in that version's names.
  Frames frames_of(const protocol::StateView& v, const std::string& state,
                   const std::string& events, const engine::Match* match, int protocol) const;

  Frames current_, v1_;  // v1_: empty when no member speaks version 1
  engine::Seat deciding_ = engine::kNoSeat;
  int spectators_ = 0;
  std::string events_;     // the events the frames show, serialized once for them and history_
  std::string events_v1_;  // the same in version 1's names, when they differ; else empty
  std::vector<protocol::SeatView> seats_;
  std::string seats_text_;
  // The steps kept for resume, their events as JSON text: a tree of std::map nodes per step made
  // these steps most of a playing room's memory.
  struct KeptStep {
    std::uint64_t version;
    std::string events;
    std::string events_v1;  // empty: the same as events
  };
  std::deque<KeptStep> history_;
  std::size_t history_size_;
};

}  // namespace tanbo_server::server
