#pragma once
// What every session shares. Sessions hold it by shared_ptr, so it outlives the last of them
// whatever order the server tears down in.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>

#include "server/net/address.hpp"
#include "server/net/address_counts.hpp"
#include "server/net/connections.hpp"
#include "server/net/frame_handler.hpp"
#include "server/net/http_slots.hpp"
#include "server/net/origin.hpp"

namespace tanbo_server::server {
class RoomService;
}
namespace tanbo_server::server::store {
class StoreWorker;
}
namespace tanbo_server::server::static_files {
class Site;
}
namespace boost::asio::ssl {
class context;
}

namespace tanbo_server::server {

struct Limits {
  std::size_t ws_message_max = 64 * 1024;
  std::size_t ws_queue_max = 1024;
  std::size_t http_body_max = 64 * 1024;
  std::chrono::seconds idle_timeout{300};  // a silent WebSocket is pinged at half, closed at full
  std::size_t max_connections = 10000;     // open WebSockets; an upgrade beyond gets 503
  std::size_t ws_queue_bytes = 4 << 20;    // queued bytes (a shared frame counts in every queue)
  std::size_t max_http = 1024;  // open HTTP connections not (yet) WebSockets; the oldest goes
  bool compression = true;      // permessage-deflate for the clients that offer it
  // Open WebSockets one client address may hold; an upgrade beyond gets 429.
  std::size_t ws_per_address = 32;
  // A WebSocket not welcomed this long after its upgrade is closed 1008.
  std::chrono::seconds hello_timeout{10};
};

// Monotonic counts (and the live gauge), exposed by /metrics (server/metrics/metrics.cpp).
struct Counters {
  std::atomic<std::uint64_t> http_requests{0};
  std::atomic<std::uint64_t> ws_opened{0};
  std::atomic<std::uint64_t> ws_dropped_slow{0};  // closed because the write queue was full
  std::atomic<std::uint64_t> ws_refused{0};       // upgrades refused: max_connections reached
  std::atomic<std::size_t> ws_live{0};            // WebSockets open now
  std::atomic<std::uint64_t> ws_messages_in{0};   // text frames read
  std::atomic<std::uint64_t> ws_messages_out{0};  // frames written
  std::atomic<std::uint64_t> ws_bytes_in{0};
  std::atomic<std::uint64_t> ws_bytes_out{0};
  std::atomic<std::uint64_t> tls_failed{0};     // TLS handshakes that failed (e.g. a plain client)
  std::atomic<std::uint64_t> http_evicted{0};   // HTTP connections closed to make room (max_http)
  std::atomic<std::uint64_t> accept_failed{0};  // accepts that failed (out of descriptors, ...)
  std::atomic<std::uint64_t> headers_too_big{0};  // requests answered 431
  // Upgrades refused 429 (ws_per_address), WebSockets closed 1008 for want of a hello, requests
  // refused 403 for a foreign Origin, API bodies refused 415 for not being JSON.
  std::atomic<std::uint64_t> ws_refused_address{0};
  std::atomic<std::uint64_t> ws_hello_timeouts{0};
  std::atomic<std::uint64_t> bad_origin{0};
  std::atomic<std::uint64_t> bad_content_type{0};
};

struct NetContext {
  explicit NetContext(std::shared_ptr<FrameHandler> f, Limits l)
      : frames(std::move(f)), limits(l), http_slots(l.max_http) {}

  std::shared_ptr<FrameHandler> frames;
  // The same as `frames` when the rooms answer the WebSockets, where the API reads the lobby and
  // the accounts; null otherwise (those calls answer 503).
  std::shared_ptr<RoomService> rooms;
  Limits limits;
  ConnectionSet connections;
  HttpSlots http_slots;
  Counters counters;
  std::shared_ptr<store::StoreWorker> store;       // null: no store (/api answers 503)
  std::shared_ptr<boost::asio::ssl::context> tls;  // null: plain TCP
  TrustedProxies trusted_proxies;                  // whose X-Forwarded-For names the client
  AllowedOrigins allowed_origins;                  // pages of other sites admitted (origin.hpp)
  AddressCounts ws_addresses;                      // open WebSockets per client address
  std::string admin_token;                         // empty: no admin API (--admin-token-file)
  std::shared_ptr<static_files::Site> web;         // the browser client's files, served at /
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
};

}  // namespace tanbo_server::server
