// A room's frames: built as text once per change and per version spoken, shared by every member.
#include "server/rooms/room_frames.hpp"

#include "engine/core/json_sink.hpp"
#include "server/metrics/metrics.hpp"

namespace tanbo_server::server {

void RoomFrames::build(protocol::StateView v, std::vector<protocol::SeatView> seats,
                       const engine::Match* match, bool v1) {
  if (seats_text_.empty() || seats != seats_) {
    seats_text_ = protocol::seats_text(seats);
    seats_ = std::move(seats);
  }
  v.seats = seats_;
  spectators_ = v.spectators;
  std::string state;
  events_.clear();
  events_v1_.clear();
  if (match) {
    state = engine::state_text(match->game());
    events_ = match->events().text();
    if (!match->events().same_in(engine::Names::v1))
      events_v1_ = match->events().text(engine::Names::v1);
  }
  deciding_ = v.pending ? v.pending->seat : engine::kNoSeat;
  current_ = frames_of(v, state, events_, match, protocol::kProtocolVersion);
  v1_ = {};
  if (v1) {
    std::string state_v1 = match ? engine::state_text(match->game(), engine::Names::v1) : "";
    if (state_v1 == state && events_v1_.empty())
      v1_ = current_;  // nothing the game shows now is named otherwise in version 1
    else
      v1_ = frames_of(v, state_v1, events_v1_.empty() ? events_ : events_v1_, match, 1);
  }
}

RoomFrames::Frames RoomFrames::frames_of(const protocol::StateView& v, const std::string& state,
                                         const std::string& events, const engine::Match* match,
                                         int protocol) const {
  Frames f;
  f.state =
      std::make_shared<const std::string>(protocol::state_text(v, {seats_text_, state, events}));
  metrics::state_frame(protocol);
  if (deciding_ != engine::kNoSeat)
    f.legal = std::make_shared<const std::string>(
        protocol::with_legal(*f.state, protocol::legal_text(*match)));
  return f;
}

void RoomFrames::send(const Roster::Member& m, protocol::Frame answer) const {
  auto peer = m.peer.lock();
  if (!peer) return;
  const Frames& f = m.protocol == 1 && v1_.state ? v1_ : current_;
  if (!f.state) {
    if (answer) peer->send(std::move(answer));
    return;
  }
  const auto& state = m.seat != engine::kNoSeat && m.seat == deciding_ ? f.legal : f.state;
  if (answer)
    peer->send_both(std::move(answer), state);
  else
    peer->send(state);
}

// Each step is kept once, whatever else moved the room at the same version.
void RoomFrames::keep(std::uint64_t version) {
  if (version == 0 || (!history_.empty() && history_.back().version == version)) return;
  history_.push_back({version, events_, events_v1_});
  while (history_.size() > history_size_) history_.pop_front();
}

bool RoomFrames::steps_after(std::uint64_t since, std::uint64_t version,
                             std::vector<protocol::Step>& steps, int protocol) const {
  const bool covered =
      since <= version &&
      (since == version || (!history_.empty() && history_.front().version <= since + 1));
  if (covered)
    for (const auto& s : history_)
      if (s.version > since) {
        const std::string& events = protocol == 1 && !s.events_v1.empty() ? s.events_v1 : s.events;
        steps.push_back({s.version, protocol::Json::parse(events)});
      }
  return covered;
}

}  // namespace tanbo_server::server
