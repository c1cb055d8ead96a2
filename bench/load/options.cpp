#include "bench/load/options.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

namespace tanbo_server::load {
namespace {

template <class T>
bool parse_number(std::string_view text, T& out, T lo, T hi) {
  T v{};
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || p != text.data() + text.size() || v < lo || v > hi) return false;
  out = v;
  return true;
}

// ws://HOST:PORT/PATH, HOST a name or an address ([::1] for IPv6).
std::string parse_url(std::string_view url, Endpoint& o) {
  const std::string url_text(url);
  constexpr std::string_view scheme = "ws://";
  if (!url.starts_with(scheme)) return "--url: only ws:// URLs (loopback) are supported";
  url.remove_prefix(scheme.size());
  std::size_t slash = url.find('/');
  std::string_view authority = url.substr(0, slash);
  o.target = slash == std::string_view::npos ? "/" : std::string(url.substr(slash));
  std::string_view host = authority, port = "80";
  if (authority.starts_with('[')) {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos) return "--url: unclosed [ in the host";
    host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return "--url: bad port";
      port = authority.substr(close + 2);
    }
  } else if (std::size_t colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (!parse_number<std::uint16_t>(port, o.port, 1, 65535)) return "--url: bad port";
  if (!is_loopback(host))
    return "--url: " + std::string(host) + " is not a loopback address; tanbo-load only loads " +
           "a server on this machine";
  o.host = host == "localhost" ? "127.0.0.1" : std::string(host);
  o.url = url_text;
  return {};
}

}  // namespace

bool is_loopback(std::string_view host) {
  if (host == "localhost" || host == "::1") return true;
  if (!host.starts_with("127.")) return false;
  int parts = 0;
  std::size_t i = 0;
  while (i <= host.size()) {
    std::size_t dot = host.find('.', i);
    std::string_view part = host.substr(i, dot == std::string_view::npos ? host.npos : dot - i);
    int byte = 0;
    if (!parse_number(part, byte, 0, 255)) return false;
    ++parts;
    if (dot == std::string_view::npos) break;
    i = dot + 1;
  }
  return parts == 4;
}

ParseOutcome parse_options(std::span<const std::string_view> args) {
  Options o;
  bool url_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view flag = args[i];
    if (flag == "-h" || flag == "--help") return HelpRequested{};
    if (flag == "--quickack") {
      o.quickack = true;
      continue;
    }
    if (flag == "--deflate") {
      o.deflate = true;
      continue;
    }
    if (flag == "--acts-without-id") {
      o.acts_without_id = true;
      continue;
    }
    if (i + 1 >= args.size()) return OptionsError{std::string(flag) + ": missing value"};
    std::string_view value = args[++i];
    auto bad = [&] {
      return OptionsError{std::string(flag) + ": bad value '" + std::string(value) + "'"};
    };
    if (flag == "--url") {
      Endpoint server;
      if (auto why = parse_url(value, server); !why.empty()) return OptionsError{why};
      if (!url_given) o.servers.clear();
      url_given = true;
      o.servers.push_back(std::move(server));
    } else if (flag == "--rooms") {
      if (!parse_number(value, o.rooms, 0, kMaxConnections)) return bad();
    } else if (flag == "--players-per-room") {
      if (!parse_number(value, o.players_per_room, 1, 8)) return bad();
    } else if (flag == "--spectators-per-room") {
      if (!parse_number(value, o.spectators_per_room, 0, kMaxConnections)) return bad();
    } else if (flag == "--game") {
      if (value.empty()) return bad();
      o.game = value;
    } else if (flag == "--options") {
      auto j = nlohmann::json::parse(value, nullptr, false);
      if (!j.is_object()) return bad();
      o.game_options = j.dump();
    } else if (flag == "--duration") {
      if (!parse_number(value, o.duration, 0.1, kMaxDuration)) return bad();
    } else if (flag == "--setup-timeout") {
      if (!parse_number(value, o.setup_timeout, 1.0, kMaxDuration)) return bad();
    } else if (flag == "--think-ms") {
      if (!parse_number(value, o.think_ms, 0, 60000)) return bad();
    } else if (flag == "--idle") {
      if (!parse_number(value, o.idle, 0, kMaxConnections)) return bad();
    } else if (flag == "--seek") {
      if (!parse_number(value, o.seekers, 0, kMaxConnections)) return bad();
    } else if (flag == "--server-pid") {
      int pid = 0;
      if (!parse_number(value, pid, 1, 1 << 30)) return bad();
      o.server_pids.push_back(pid);
    } else if (flag == "--threads") {
      if (!parse_number(value, o.threads, 1, 64)) return bad();
    } else if (flag == "--seed") {
      if (!parse_number(value, o.seed, std::uint64_t{0}, ~std::uint64_t{0})) return bad();
    } else if (flag == "--dial-window") {
      if (!parse_number(value, o.dial_window, 1, 10000)) return bad();
    } else {
      return OptionsError{"unknown option '" + std::string(flag) + "'"};
    }
  }
  if (o.connections() > kMaxConnections)
    return OptionsError{"at most " + std::to_string(kMaxConnections) + " connections, not " +
                        std::to_string(o.connections())};
  if (o.connections() == 0) return OptionsError{"nothing to do: give --rooms, --idle or --seek"};
  return o;
}

std::string usage() {
  return R"(Usage: tanbo-load [OPTION]...
Loads a tanbo-server on this machine over WebSocket and prints one JSON object of figures.

  --url URL                 ws://HOST:PORT/PATH, loopback only (default ws://127.0.0.1:8080/ws);
                            repeated for the nodes of a cluster: room k is created on node
                            k mod N, its other members connect to nodes k+1, k+2... mod N
  --rooms R                 rooms to create and play (default 0)
  --players-per-room P      seats per room, 1 to 8 (default 2)
  --spectators-per-room S   spectators joined to each room (default 0)
  --game G                  game id (default mancala-simple)
  --options JSON            the game's options (default: its defaults)
  --duration SECONDS        measurement time after the set-up (default 10, at most 3600)
  --setup-timeout SECONDS   longest set-up before measuring anyway (default 120)
  --think-ms T              delay before each action (default 0: as fast as the server allows)
  --idle N                  extra connections that say hello, watch the lobby and stay idle
  --seek N                  Play now: N connections that seek in the pool of --game and
                            --players, play the game they are paired into, and seek again
  --server-pid PID          report the server's RSS and CPU from /proc/PID; repeated, their sum
                            and each pid's own figures
  --threads N               client threads, rooms shared among them (default 1)
  --seed N                  seed of the random choices (default 1)
  --dial-window N           connections in their handshake at once, per thread (default 128)
  --quickack                acknowledge every read at once (TCP_QUICKACK): for diagnosis, it
                            hides the delays a server without TCP_NODELAY adds (Nagle's algorithm
                            waiting for delayed acknowledgements)
  --deflate                 offer WebSocket compression (permessage-deflate with
                            client_max_window_bits), as browsers do; received.wire_bytes_per_s
                            (what the sockets received: frames, compressed or not) then shows
                            what it saves
  --acts-without-id         send each act without an id: the server then answers it with the
                            state alone, no `ok` (docs/protocol.md, "act"), one frame fewer per
                            move, as the peers' clients are answered; a refusal is then the
                            `error` whose re is null
  -h, --help                print this help and exit

Finished games are rematched in the same room, so the load lasts the whole duration. At most
60000 connections; exits 2 on a bad flag, 1 when the server cannot be reached.
)";
}

}  // namespace tanbo_server::load
