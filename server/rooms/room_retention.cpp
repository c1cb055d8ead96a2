// A room brought back by recovery, and a room leaving memory once idle for the retention time.
#include "server/rooms/room.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "server/rooms/lobby.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

namespace net = boost::asio;
using protocol::RoomStatus;

std::shared_ptr<Room> Room::restore(RoomsExecutor ex, RoomSetup setup, RoomSettings settings,
                                    std::shared_ptr<Lobby> lobby,
                                    std::shared_ptr<RoomJournal> journal, RoomRestore state) {
  auto room =
      std::make_shared<Room>(std::move(ex), std::move(setup), settings, lobby, std::move(journal));
  room->match_ = std::move(state.match);
  room->seed_ = state.seed;
  room->commit_ = engine::seed_commitment(state.seed);  // R1: the same commitment as before
  for (std::size_t s = 0; s < room->roster_.seats.size() && s < state.seats.size(); ++s)
    room->roster_.seats[s].player = std::move(state.seats[s]);
  room->version_ = state.version;
  room->game_no_ = state.game_no;
  room->epoch_ = state.epoch;
  if (state.left.size() == room->left_.size()) room->left_ = state.left;
  room->ratings_ = std::move(state.ratings);
  if (room->match_ && room->match_->game().status() == engine::Status::finished)
    for (std::size_t s = 0; s < room->left_.size(); ++s)
      if (room->left_[s]) room->takeover_.push_back(engine::Seat(s));
  // A game clock stands as the last step left it: the time since then, the server's downtime
  // included, is charged to nobody; the deciding seat's time runs again from now.
  room->clock_.start(wall_ms(), room->match_ ? room->roster_.seats.size() : 0, room->to_decide());
  room->clock_.restore(state.step_at_ms, state.clocks);
  for (std::size_t c = 0; c < room->chat_.size(); ++c) {
    room->chat_[c].next = state.chat[c].next;
    room->chat_[c].recent.assign(state.chat[c].lines.begin(), state.chat[c].lines.end());
  }
  if (state.finished_at_ms != 0)  // idle since the game ended, however long the server was down
    room->idle_since_ =
        std::chrono::steady_clock::now() -
        std::chrono::milliseconds(std::max<std::int64_t>(0, wall_ms() - state.finished_at_ms));
  lobby->add(room);
  room->publish();  // listed (and in welcome's seats) before the server takes its first request
  // From the strand like every change: publishes, arms the clocks and retention, asks a CPU.
  room->enqueue([room] { room->after_change(); });
  return room;
}

void Room::check_retention() {
  const bool asked = !roster_.rematch_asked().empty();
  const auto st = status();
  bool idle = (st == RoomStatus::finished && (!asked || roster_.members.empty())) ||
              (st == RoomStatus::waiting && roster_.members.empty());
  if (!idle || life_ == Life::retired || refusing()) return idle_since_.reset();
  if (!idle_since_) idle_since_ = std::chrono::steady_clock::now();
  if (retire_armed_ || quiet()) return;
  retire_armed_ = true;
  retire_.expires_at(*idle_since_ + settings_.retention);
  retire_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    self->retire_armed_ = false;
    if (!ec) self->on_retention();
  });
}

void Room::on_retention() {
  if (!idle_since_ || life_ != Life::live) return;
  if (std::chrono::steady_clock::now() < *idle_since_ + settings_.retention)
    return check_retention();  // idle again since a later moment: wait the rest
  const bool waiting = status() == RoomStatus::waiting;
  auto retire = [this, self = shared_from_this(), waiting] {
    enter(Life::retired);
    lobby_->remove(id());
    spdlog::info("room {} leaves memory: {}", id(),
                 waiting ? "abandoned while waiting" : "finished, no rematch asked");
  };
  if (!waiting) return retire();  // the records stay in the store
  if (store_ != Store::ready)
    return backlog_.push_back([this, self = shared_from_this()] { on_retention(); });
  // A waiting room everyone left: journaled so that recovery never brings it back.
  journal({{JournalEntry::Kind::abandoned, id(), version_, engine::kNoSeat, nullptr}}, retire);
}

}  // namespace tanbo_server::server
