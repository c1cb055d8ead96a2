// A room's frames: built as text once per change, shared by every member.
#include "server/rooms/room_frames.hpp"

#include "engine/core/json_sink.hpp"

namespace tanbo::server {

void RoomFrames::build(protocol::StateView v, std::vector<protocol::SeatView> seats,
                       const engine::Match* match) {
  if (seats_text_.empty() || seats != seats_) {
    seats_text_ = protocol::seats_text(seats);
    seats_ = std::move(seats);
  }
  v.seats = seats_;
  spectators_ = v.spectators;
  std::string state;
  events_.clear();
  if (match) {
    state = engine::state_text(match->game());
    events_ = match->events().text();
  }
  frame_ =
      std::make_shared<const std::string>(protocol::state_text(v, {seats_text_, state, events_}));
  deciding_ = v.pending ? v.pending->seat : engine::kNoSeat;
  legal_frame_.reset();
  if (deciding_ != engine::kNoSeat)
    legal_frame_ = std::make_shared<const std::string>(
        protocol::with_legal(*frame_, protocol::legal_text(*match)));
}

void RoomFrames::send(const Roster::Member& m, protocol::Frame answer) const {
  auto peer = m.peer.lock();
  if (!peer) return;
  if (!frame_) {
    if (answer) peer->send(std::move(answer));
    return;
  }
  const auto& state = m.seat != engine::kNoSeat && m.seat == deciding_ ? legal_frame_ : frame_;
  if (answer)
    peer->send_both(std::move(answer), state);
  else
    peer->send(state);
}

// Each step is kept once, whatever else moved the room at the same version.
void RoomFrames::keep(std::uint64_t version) {
  if (version == 0 || (!history_.empty() && history_.back().version == version)) return;
  history_.push_back({version, events_});
  while (history_.size() > history_size_) history_.pop_front();
}

bool RoomFrames::steps_after(std::uint64_t since, std::uint64_t version,
                             std::vector<protocol::Step>& steps) const {
  const bool covered =
      since <= version &&
      (since == version || (!history_.empty() && history_.front().version <= since + 1));
  if (covered)
    for (const auto& s : history_)
      if (s.version > since) steps.push_back({s.version, protocol::Json::parse(s.events)});
  return covered;
}

}  // namespace tanbo::server
