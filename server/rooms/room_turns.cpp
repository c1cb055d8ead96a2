// A room's turns: CPU seats, takeover of a player away, and the time controls (per-decision
// timer, game clock, correspondence). docs/bots.md, "In the server"; docs/protocol.md, "Time
// controls".
#include <spdlog/spdlog.h>

#include <algorithm>

#include "server/metrics/metrics.hpp"
#include "server/rooms/room.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

namespace net = boost::asio;
using protocol::ErrorCode;
using protocol::RoomStatus;

// ---- CPU seats, turn timers, takeover (docs/bots.md, "In the server") ----------------------

void Room::do_fill_cpu(const Peer& peer, protocol::CpuLevel level, const Id& re) {
  const Member* m = seated(peer, re);
  if (!m) return;
  if (setup_.ranked)
    return refuse(peer, ErrorCode::bad_option, "ranked rooms seat people only", re);
  if (match_) return refuse(peer, ErrorCode::room_full, "every seat is taken", re);
  std::vector<JournalEntry> entries;
  for (std::size_t s = 0; s < roster_.seats.size(); ++s)
    if (!roster_.seats[s].player)
      entries.push_back(take_seat(engine::Seat(s), cpu_identity(level)));
  if (entries.empty()) return refuse(peer, ErrorCode::room_full, "every seat is taken", re);
  if (!start_game(setup_.options))  // the room is broken; the journal never saw the seats
    return refuse(peer, ErrorCode::internal, "the game did not start", re);
  entries.back().version = version_;
  journal(std::move(entries),
          [this, self = shared_from_this(), asker = Asker{peer, re}] {
            after_change();
            answer(asker);
          },
          {peer, re});
}

// Takeover: a player with no connection in the room while the game goes on is played by the CPU
// once away longer than the grace, until back (join): from the next decision the seat is theirs.
void Room::watch_seats() {
  const bool playing = status() == RoomStatus::playing && !quiet();
  const std::vector<bool> here = roster_.here();
  for (std::size_t s = 0; s < roster_.seats.size(); ++s) {
    Seat& seat = roster_.seats[s];
    Away& away = away_[s];
    const bool person = seat.player && !cpu_level_of(seat.player->id);
    // A correspondence game waits days for its players: being away is how it is played.
    if (!person || here[s] || !playing || clock_.correspondence()) {
      if (seat.takeover && here[s]) spdlog::info("room {}: seat {} has its player back", id(), s);
      seat.takeover = false;
      if (away.armed) away.armed = false, ++away.generation, away.timer->cancel();
      continue;
    }
    if (seat.takeover || away.armed) continue;
    if (!away.timer) away.timer = std::make_unique<net::steady_timer>(strand_);
    away.armed = true;
    away.timer->expires_after(settings_.takeover_grace);
    away.timer->async_wait([weak = weak_from_this(), s, g = away.generation](auto ec) {
      if (ec) return;
      if (auto self = weak.lock()) self->enqueue([self, s, g] { self->on_grace(s, g); });
    });
  }
}

void Room::on_grace(std::size_t seat, std::uint64_t generation) {
  Away& away = away_[seat];
  if (!away.armed || away.generation != generation || quiet()) return;
  away.armed = false;
  roster_.seats[seat].takeover = true;
  spdlog::info("room {}: seat {} away past the grace; the CPU plays it", id(), seat);
  after_change();
}

// Who decides now: a CPU seat, or a seat taken over, asks the pool at once; a person in a room
// with a per-decision timer gets the clock, and the CPU decides when it runs out. With a game
// clock or by correspondence every seat's time runs, the computer's too, and runs out into a loss.
void Room::next_decision() {
  if (quiet() || status() != RoomStatus::playing) {
    turn_timer_.cancel();
    timer_version_ = 0;
    return;
  }
  const engine::Seat seat = match_->game().pending().seat;
  if (clock_.loses_on_time()) arm_clock();
  if (auto level = cpu_for(seat))
    return ask_bot(seat, *level, roster_.seats[std::size_t(seat)].takeover ? "takeover" : "cpu");
  if (clock_.per_decision()) arm_clock();
}

void Room::arm_clock() {
  if (timer_version_ == version_) return;
  timer_version_ = version_;
  // From the last step's wall-clock time, so a clock brought back by recovery keeps its deadline.
  turn_timer_.expires_after(
      std::chrono::milliseconds(std::max<std::int64_t>(0, clock_.deadline() - wall_ms())));
  turn_timer_.async_wait([weak = weak_from_this(), v = version_](auto ec) {
    if (ec) return;
    if (auto self = weak.lock()) self->enqueue([self, v] { self->on_clock(v); });
  });
}

void Room::on_clock(std::uint64_t version) {
  if (version != version_ || quiet() || status() != RoomStatus::playing) return;
  if (clock_.loses_on_time()) {
    if (time_out_if_due(wall_ms())) return;
    timer_version_ = 0;  // woken a little early: wait the rest
    return arm_clock();
  }
  const engine::Seat seat = match_->game().pending().seat;
  spdlog::info("room {}: seat {} out of time at version {}; the CPU decides", id(), seat, version);
  ask_bot(seat, takeover_level(), "timer");
}

std::optional<protocol::CpuLevel> Room::cpu_for(engine::Seat seat) const {
  if (seat < 0 || std::size_t(seat) >= roster_.seats.size() ||
      !roster_.seats[std::size_t(seat)].player)
    return std::nullopt;
  const Seat& s = roster_.seats[std::size_t(seat)];
  if (auto level = cpu_level_of(s.player->id)) return level;
  if (s.takeover) return takeover_level();
  return std::nullopt;
}

// One question per version: a same-version change (a join, a connection) asks nothing new.
void Room::ask_bot(engine::Seat seat, protocol::CpuLevel level, std::string_view why) {
  if (asked_version_ == version_ || !settings_.bots || quiet()) return;
  asked_version_ = version_;
  if (!clock_.loses_on_time()) turn_timer_.cancel();  // the CPU's answer is the timer's
  BotRequest r;
  r.game = match_->game().clone();
  r.seat = seat;
  r.level =
      engine::bots::level_from(protocol::to_string(level)).value_or(engine::bots::Level::greedy);
  r.deadline = engine::bots::Clock::now() + settings_.bots->budget();
  // `why` is one of the literals above: a view of static text.
  r.done = [weak = weak_from_this(), v = version_, seat, why](engine::Json action) {
    if (auto self = weak.lock())
      self->enqueue([self, v, seat, why, action = std::move(action)] {
        self->do_bot_act(v, seat, action, why);
      });
  };
  settings_.bots->submit(std::move(r));
}

// A CPU's answer meets the checks a person's act meets; one for a version gone is dropped.
void Room::do_bot_act(std::uint64_t version, engine::Seat seat, const engine::Json& action,
                      std::string_view why) {
  if (refusing()) return;
  if (action.is_null())
    return spdlog::warn("room {}: no CPU answer for seat {} at version {}", id(), seat, version);
  auto no = play(seat, version, action, {}, why);
  if (!no) return;
  if (no->first == ErrorCode::stale_version || no->first == ErrorCode::game_over)
    spdlog::debug("room {}: a CPU answer for version {} came after the room moved on", id(),
                  version);
  else
    spdlog::error("room {}: the CPU's answer for seat {} was refused: {}", id(), seat, no->second);
}

protocol::CpuLevel Room::takeover_level() const {
  if (setup_.timer.is_object())
    if (auto it = setup_.timer.find("takeover"); it != setup_.timer.end() && it->is_string())
      if (auto level = cpu_level_of("cpu:" + it->get<std::string>())) return *level;
  return protocol::CpuLevel::greedy;
}

// ---- time controls (docs/protocol.md, "Time controls") ------------------------------------

engine::Seat Room::to_decide() const {
  if (!match_ || match_->game().status() == engine::Status::finished) return engine::kNoSeat;
  return match_->game().pending().seat;
}

bool Room::time_out_if_due(std::int64_t now) {
  if (!clock_.loses_on_time() || !match_ || status() != RoomStatus::playing) return false;
  if (!clock_.due(now)) return false;
  const engine::Seat seat = match_->game().pending().seat;
  if (match_->time_out(seat)) return false;  // in the game and deciding: never refused
  const bool correspondence = clock_.correspondence();
  spdlog::info("room {}: seat {} ran out of time at version {} ({})", id(), seat, version_,
               correspondence ? "correspondence" : "game clock");
  ++version_;
  metrics::time_out(correspondence);
  step({{JournalEntry::Kind::action, id(), version_, seat, engine::Json(engine::kTimeout)}});
  return true;
}

}  // namespace tanbo_server::server
