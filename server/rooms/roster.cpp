// A room's people: its seats and the connections in it.
#include "server/rooms/roster.hpp"

#include <algorithm>

namespace tanbo_server::server {

namespace {

constexpr std::string_view kCpuPrefix = "cpu:";

}  // namespace

Identity cpu_identity(protocol::CpuLevel level) {
  auto name = protocol::to_string(level);
  return {std::string(kCpuPrefix).append(name), std::string("CPU (").append(name).append(")")};
}

std::optional<protocol::CpuLevel> cpu_level_of(const std::string& identity_id) {
  if (!identity_id.starts_with(kCpuPrefix)) return std::nullopt;
  for (auto l : {protocol::CpuLevel::random, protocol::CpuLevel::greedy, protocol::CpuLevel::mcts})
    if (identity_id.substr(kCpuPrefix.size()) == protocol::to_string(l)) return l;
  return std::nullopt;
}

Roster::Member* Roster::member(std::uint64_t peer_id) {
  for (auto& m : members)
    if (m.peer_id == peer_id) return &m;
  return nullptr;
}

const Roster::Member* Roster::seated(std::uint64_t peer_id) const {
  for (const auto& m : members)
    if (m.peer_id == peer_id) return m.seat == engine::kNoSeat ? nullptr : &m;
  return nullptr;
}

bool Roster::remove(std::uint64_t peer_id) {
  bool seated = false;
  std::erase_if(members, [&](const Member& m) {
    if (m.peer_id != peer_id) return false;
    seated = seated || m.seat != engine::kNoSeat;
    return true;
  });
  return seated;
}

int Roster::spectators() const {
  int n = 0;
  for (const auto& m : members) n += m.seat == engine::kNoSeat;
  return n;
}

bool Roster::any_v1() const {
  for (const auto& m : members)
    if (m.protocol == 1) return true;
  return false;
}

std::vector<bool> Roster::here() const {
  std::vector<bool> out(seats.size());
  for (const auto& m : members)
    if (m.seat != engine::kNoSeat) out[std::size_t(m.seat)] = true;
  return out;
}

engine::Seat Roster::seat_of(const std::string& identity) const {
  engine::Seat seat = engine::kNoSeat;
  for (std::size_t s = 0; s < seats.size(); ++s)
    if (seats[s].player && seats[s].player->id == identity) seat = engine::Seat(s);
  return seat;
}

engine::Seat Roster::first_free() const {
  for (std::size_t s = 0; s < seats.size(); ++s)
    if (!seats[s].player) return engine::Seat(s);
  return engine::kNoSeat;
}

bool Roster::full() const {
  return std::all_of(seats.begin(), seats.end(), [](const Seat& s) { return s.player; });
}

bool Roster::all_rematch() const {
  return std::all_of(seats.begin(), seats.end(), [](const Seat& s) {
    return s.rematch || (s.player && cpu_level_of(s.player->id));
  });
}

std::vector<engine::Seat> Roster::rematch_asked() const {
  std::vector<engine::Seat> out;
  for (std::size_t s = 0; s < seats.size(); ++s)
    if (seats[s].rematch) out.push_back(engine::Seat(s));
  return out;
}

std::vector<protocol::SeatView> Roster::views(protocol::CpuLevel takeover) const {
  std::vector<protocol::SeatView> out(seats.size());
  for (std::size_t s = 0; s < seats.size(); ++s) {
    out[s].seat = engine::Seat(s);
    if (!seats[s].player) continue;
    if (auto level = cpu_level_of(seats[s].player->id)) {  // a CPU seat shows no player
      out[s].cpu = true;
      out[s].level = level;
      continue;
    }
    const Identity& who = *seats[s].player;
    out[s].player = protocol::Player{who.id, who.name, !who.username.empty(), who.bot};
    if (seats[s].takeover) out[s].cpu = true, out[s].level = takeover;
  }
  for (const auto& m : members)
    if (m.seat != engine::kNoSeat) out[std::size_t(m.seat)].connected = true;
  return out;
}

}  // namespace tanbo_server::server
