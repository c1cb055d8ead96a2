#pragma once
// A real server with the room service on an ephemeral loopback port, and helpers that seat
// protocol clients at a table.
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "server/rooms/service.hpp"
#include "tests/server/support/in_process_server.hpp"
#include "tests/server/support/protocol_client.hpp"

namespace tanbo_server::server::test {

// Limits wide enough that only the test aimed at one meets it.
inline Config rooms_config() {
  Config c = loopback_config();
  c.rate_burst = 1'000'000;
  c.rate_per_second = 1'000'000;
  c.max_rooms = 1000;
  c.rooms_per_address = 1000;
  c.room_threads = 2;
  return c;
}

struct RoomsServer {
  explicit RoomsServer(Config c = rooms_config())
      : service(std::make_shared<RoomService>(service_options(c))), server(c, service) {
    if (std::getenv("TANBO_TEST_LOG")) spdlog::set_level(spdlog::level::debug);
  }
  // Lets every connection close and reach the rooms before the threads stop.
  ~RoomsServer() {
    server.server.stop(std::chrono::seconds(2));
    service->shutdown();
  }
  std::uint16_t port() const { return server.port(); }

  std::shared_ptr<RoomService> service;
  InProcessServer server;
};

// Players 0..n-1 (player 0 created the room) and spectators, every one holding the room's
// latest state, all at the same version.
struct Table {
  std::string room;
  std::vector<std::unique_ptr<ProtocolClient>> players;
  std::vector<std::unique_ptr<ProtocolClient>> spectators;
  std::vector<json> tokens;  // per player
  json state;                // the spectators' view (no legal)
  std::vector<json> seen;    // per player, its last state

  // Creates the room, seats `spectators` spectators, then the players (the game starts).
  static Table seat(std::uint16_t port, const std::string& game, int players, int spectators = 1,
                    const json& options = json::object());
  // Every member reads one state; all must agree (legal aside) and have version `version`.
  void read_states(std::uint64_t version);
  // Every member reads states until it has `version` (skipping same-version changes).
  void catch_up(std::uint64_t version);
  int deciding() const;
  // The deciding seat sends its first legal action at the table's version, which it returns.
  std::uint64_t play_first();
  ProtocolClient& at(int seat) { return *players[std::size_t(seat)]; }
};

json without_legal(json s);

}  // namespace tanbo_server::server::test
