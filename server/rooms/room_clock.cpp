// A room's time control as arithmetic: the deadlines and a game clock's time per seat.
#include "server/rooms/room_clock.hpp"

#include <algorithm>

namespace tanbo_server::server {

engine::Json timer_settings(const protocol::TimeControl& tc) {
  using Kind = protocol::TimeControl::Kind;
  if (tc.kind == Kind::none) return engine::Json::object();
  if (tc.kind == Kind::per_decision) return {{"seconds", tc.seconds}, {"takeover", "greedy"}};
  return {{"control", tc.to_json()}};
}

protocol::TimeControl time_control_of(const engine::Json& timer) {
  if (!timer.is_object()) return {};
  if (auto it = timer.find("control"); it != timer.end()) {
    std::string why;
    return protocol::read_time_control(*it, why).value_or(protocol::TimeControl{});
  }
  if (auto it = timer.find("seconds"); it != timer.end() && it->is_number_integer())
    return protocol::TimeControl::per_decision(it->get<int>());
  return {};
}

RoomClock::RoomClock(protocol::TimeControl control, std::chrono::milliseconds second,
                     std::chrono::milliseconds day)
    : control_(control), second_(second), day_(day) {}

void RoomClock::start(std::int64_t now, std::size_t seats, engine::Seat deciding) {
  last_step_ = now;
  running_ = engine::kNoSeat;
  remaining_.clear();
  if (!game_clock() || seats == 0) return;
  remaining_.assign(seats, ms(control_.base_s));
  running_ = deciding;
  running_since_ = now;
}

void RoomClock::restore(std::int64_t last_step, const std::vector<std::int64_t>& remaining) {
  last_step_ = last_step;
  if (remaining.size() == remaining_.size()) remaining_ = remaining;
}

// R4's forced decisions happen inside the step, so they take no time and earn no increment.
void RoomClock::turned(std::int64_t now, engine::Seat decided, engine::Seat deciding) {
  if (!game_clock()) return;
  if (running_ != engine::kNoSeat) {
    auto& left = remaining_[std::size_t(running_)];
    left = std::max<std::int64_t>(0, left - std::max<std::int64_t>(0, now - running_since_));
  }
  if (decided != engine::kNoSeat) remaining_[std::size_t(decided)] += ms(control_.increment_s);
  running_ = deciding;
  running_since_ = now;
}

std::int64_t RoomClock::deadline() const {
  switch (control_.kind) {
    case Kind::none:
      return 0;
    case Kind::per_decision:  // from the last step's wall-clock time: recovery keeps it
      return last_step_ + ms(control_.seconds);
    case Kind::clock:
      return running_ == engine::kNoSeat ? 0 : running_since_ + remaining_[std::size_t(running_)];
    case Kind::correspondence: {
      const std::int64_t day = day_.count() > 0 ? day_.count() : ms(86'400);
      return last_step_ + control_.days * day;  // a date: kept across restarts
    }
  }
  return 0;
}

bool RoomClock::due(std::int64_t now) const {
  const auto at = deadline();
  return at != 0 && at <= now;
}

// A finished game still shows a game clock's times, stopped where the last step left them.
bool RoomClock::view(protocol::Clock& c, std::vector<std::int64_t>& shown, std::int64_t now,
                     protocol::RoomStatus status, engine::Seat deciding) const {
  const bool over_clock = status == protocol::RoomStatus::finished && game_clock();
  if (!timed() || (status != protocol::RoomStatus::playing && !over_clock)) return false;
  c.control = control_.kind;
  c.at_ms = now;
  c.seat = deciding;
  if (c.seat != engine::kNoSeat) {
    c.deadline_ms = deadline();
    c.left_ms = std::max<std::int64_t>(0, c.deadline_ms - now);
  }
  if (game_clock()) {
    shown = remaining_;
    if (running_ != engine::kNoSeat)
      shown[std::size_t(running_)] = std::max<std::int64_t>(
          0, shown[std::size_t(running_)] - std::max<std::int64_t>(0, now - running_since_));
    c.remaining = shown;
    c.increment_ms = ms(control_.increment_s);
  }
  return true;
}

}  // namespace tanbo_server::server
