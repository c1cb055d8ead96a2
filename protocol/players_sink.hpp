#pragma once
// A player and a room's seats, written once for every message that shows them: into a tree for
// the lobby's and the welcome's messages, as text into the `state` frame.
#include <span>

#include "engine/core/json_sink.hpp"
#include "protocol/server.hpp"

namespace tanbo_server::protocol {

void write_player(engine::JsonSink& out, const Player& p);
void write_seats(engine::JsonSink& out, std::span<const SeatView> seats);

}  // namespace tanbo_server::protocol
