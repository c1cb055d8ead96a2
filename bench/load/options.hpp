#pragma once
// tanbo-load's flags. Every count and time is bounded, and only a loopback server is accepted:
// the tool measures this machine's server, it is not a way to flood someone else's.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tanbo_server::load {

inline constexpr int kMaxConnections = 60000;  // the loopback ephemeral port range is ~28,000
inline constexpr double kMaxDuration = 3600;

// One server to load, from a --url: a node of the cluster when there are several.
struct Endpoint {
  std::string url = "ws://127.0.0.1:8080/ws";
  std::string host = "127.0.0.1";  // from url: a loopback address
  std::uint16_t port = 8080;
  std::string target = "/ws";
};

struct Options {
  // In --url order; the first --url replaces the default.
  std::vector<Endpoint> servers{Endpoint{}};
  int rooms = 0;
  int players_per_room = 2;
  int spectators_per_room = 0;
  std::string game = "mancala-simple";
  std::string game_options;  // a JSON object text; empty: the game's defaults
  double duration = 10;      // seconds of measurement, after the set-up
  double setup_timeout = 120;
  int think_ms = 0;
  int idle = 0;  // extra connections that only say hello and watch the lobby
  int seekers =
      0;  // Play now: connections that seek, play the game they are paired into, seek again
  std::vector<int> server_pids;  // empty: no server figures
  int threads = 1;
  std::uint64_t seed = 1;
  int dial_window = 128;  // connections in their handshake at once
  bool quickack = false;  // TCP_QUICKACK after every read: shows what Nagle's algorithm costs
  bool deflate = false;   // offer permessage-deflate, as a browser does
  bool acts_without_id = false;  // acts carry no id: their state is their only answer, no `ok`

  int connections() const {
    return rooms * (players_per_room + spectators_per_room) + idle + seekers;
  }
};

// The server of member `member` of room `room` (member 0 its creator, then the other players,
// then the spectators): the rooms' owners take turns, and the members of a room take the servers
// in turn from its owner's, so with several nodes most of them reach the room through another.
inline std::size_t server_of(int room, int member, std::size_t servers) {
  return std::size_t(room + member) % servers;
}

struct HelpRequested {};
struct OptionsError {
  std::string message;
};
using ParseOutcome = std::variant<Options, HelpRequested, OptionsError>;

// args excludes the program name.
ParseOutcome parse_options(std::span<const std::string_view> args);
std::string usage();

// True for localhost, 127.0.0.0/8 and ::1.
bool is_loopback(std::string_view host);

}  // namespace tanbo_server::load
