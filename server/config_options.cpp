// The rows of the server's settings (server/config_options.hpp): each value checked by its
// setter, from the flag or else from the environment variable. A new flag is one setter and one
// row.
#include "server/config_options.hpp"

#include <algorithm>
#include <array>
#include <boost/asio/ip/address.hpp>
#include <charconv>
#include <type_traits>
#include <vector>

#include "server/cluster/redis.hpp"
#include "server/mail/address.hpp"
#include "server/mail/mailer.hpp"
#include "server/net/address.hpp"
#include "server/net/origin.hpp"
#include "server/net/tls.hpp"

namespace tanbo_server::server {
namespace {

// What a setter says about a bad value; empty when the value was accepted.
using Verdict = std::string;

std::optional<std::uint64_t> parse_unsigned(std::string_view s, std::uint64_t lo,
                                            std::uint64_t hi) {
  std::uint64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || ec != std::errc{} || p != end || v < lo || v > hi) return std::nullopt;
  return v;
}

Verdict set_bind(Config& c, std::string_view v) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(std::string(v), ec);
  if (ec) return "expected an IPv4 or IPv6 address, got '" + std::string(v) + "'";
  c.bind = v;
  return {};
}

Verdict set_port(Config& c, std::string_view v) {
  auto n = parse_unsigned(v, 0, 65535);
  if (!n) return "expected a port number 0-65535, got '" + std::string(v) + "'";
  c.port = static_cast<std::uint16_t>(*n);
  return {};
}

Verdict set_data_dir(Config& c, std::string_view v) {
  if (v.empty()) return "expected a directory, got an empty string";
  c.data_dir = std::string(v);
  return {};
}

constexpr std::array<std::string_view, 7> kLogLevels = {"trace", "debug",    "info", "warn",
                                                        "error", "critical", "off"};

Verdict set_log_level(Config& c, std::string_view v) {
  for (auto level : kLogLevels)
    if (v == level) return c.log_level = v, Verdict{};
  return "expected one of trace, debug, info, warn, error, critical, off, got '" + std::string(v) +
         "'";
}

Verdict set_threads(Config& c, std::string_view v) {
  auto n = parse_unsigned(v, 1, 1024);
  if (!n) return "expected a thread count 1-1024, got '" + std::string(v) + "'";
  c.threads = static_cast<unsigned>(*n);
  return {};
}

Verdict set_web_dir(Config& c, std::string_view v) {
  if (v.empty()) return "expected a directory, got an empty string";
  c.web_dir = std::string(v);
  return {};
}

Verdict set_durability(Config& c, std::string_view v) {
  if (v != "normal" && v != "full") return "expected normal or full, got '" + std::string(v) + "'";
  c.durability = v;
  return {};
}

Verdict set_compression(Config& c, std::string_view v) {
  if (v != "on" && v != "off") return "expected on or off, got '" + std::string(v) + "'";
  c.compression = v == "on";
  return {};
}

Verdict set_store(Config& c, std::string_view v) {
  if (v.empty()) return "expected postgresql://... or a SQLite file, got an empty string";
  c.store = v;
  return {};
}

Verdict set_cluster(Config& c, std::string_view v) {
  std::string error;
  if (!cluster::parse_redis_url(v, error)) return error;
  c.cluster = v;
  return {};
}

// A node id goes into Redis keys and a pub/sub notice: one word.
Verdict set_node_id(Config& c, std::string_view v) {
  auto word = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '-' || ch == '_' || ch == '.';
  };
  if (v.empty() || v.size() > 64 || !std::all_of(v.begin(), v.end(), word))
    return "expected 1-64 letters, digits, '-', '_' or '.', got '" + std::string(v) + "'";
  c.node_id = v;
  return {};
}

// The items of a comma-separated list, trimmed of spaces; empty ones dropped.
std::vector<std::string> comma_items(std::string_view v) {
  std::vector<std::string> out;
  while (!v.empty()) {
    auto comma = v.find(',');
    std::string item(v.substr(0, comma));
    v = comma == std::string_view::npos ? std::string_view() : v.substr(comma + 1);
    item.erase(0, item.find_first_not_of(' '));
    item.erase(item.find_last_not_of(' ') + 1);
    if (!item.empty()) out.push_back(std::move(item));
  }
  return out;
}

// A comma-separated list of addresses or CIDR blocks, IPv4 or IPv6.
Verdict set_trusted_proxies(Config& c, std::string_view v) {
  auto items = comma_items(v);
  for (const auto& item : items)
    if (!parse_network(item))
      return "expected addresses or CIDR blocks separated by commas, got '" + item + "'";
  c.trusted_proxies = std::move(items);
  return {};
}

// A comma-separated list of origins (http[s]://host[:port]), or "*" alone for any.
Verdict set_allowed_origins(Config& c, std::string_view v) {
  auto items = comma_items(v);
  for (const auto& item : items)
    if (item != "*" && !normalize_origin(item))
      return "expected origins like https://play.example.org separated by commas, or *, got '" +
             item + "'";
  c.allowed_origins = std::move(items);
  return {};
}

Verdict set_mail_command(Config& c, std::string_view v) {
  if (!mail::command_words(v)) return "expected a command, like \"/usr/sbin/sendmail -t -i\"";
  c.mail_command = v;
  return {};
}

Verdict set_mail_from(Config& c, std::string_view v) {
  if (!mail::sender_ok(v))
    return "expected an address, like tanbo@example.org or \"Tanbo <tanbo@example.org>\", got '" +
           std::string(v) + "'";
  c.mail_from = v;
  return {};
}

Verdict set_public_url(Config& c, std::string_view v) {
  auto url = mail::public_url(v);
  if (!url) return "expected http://HOST or https://HOST[/PATH], got '" + std::string(v) + "'";
  c.public_url = *url;
  return {};
}

template <auto Config::*Field, std::uint64_t Lo, std::uint64_t Hi>
Verdict set_number(Config& c, std::string_view v) {
  auto n = parse_unsigned(v, Lo, Hi);
  if (!n)
    return "expected a number " + std::to_string(Lo) + "-" + std::to_string(Hi) + ", got '" +
           std::string(v) + "'";
  c.*Field = static_cast<std::remove_reference_t<decltype(c.*Field)>>(*n);
  return {};
}

Verdict set_healthcheck(Config& c, std::string_view) { return c.healthcheck = true, Verdict{}; }
// A switch that its environment variable may also turn off.
Verdict set_ranked_requires_account(Config& c, std::string_view v) {
  if (v.empty() || v == "1" || v == "true") return c.ranked_requires_account = true, Verdict{};
  if (v == "0" || v == "false") return c.ranked_requires_account = false, Verdict{};
  return "expected 1, true, 0 or false, got '" + std::string(v) + "'";
}

template <std::string Config::*Field>
Verdict set_file(Config& c, std::string_view v) {
  if (v.empty()) return "expected a file, got an empty string";
  c.*Field = std::string(v);
  return {};
}

// Sized by its list, so that adding a flag is adding a line.
constexpr auto kOptions = std::to_array<Option>({
    {"--bind", "TANBO_BIND", "ADDR", "address to listen on (default 0.0.0.0)", set_bind},
    {"--port", "TANBO_PORT", "N", "TCP port; 0 picks a free one (default 8080)", set_port},
    {"--data-dir", "TANBO_DATA_DIR", "DIR", "where games and records are kept (default ./data)",
     set_data_dir},
    {"--log-level", "TANBO_LOG_LEVEL", "LEVEL",
     "trace, debug, info, warn, error, critical or off (default info)", set_log_level},
    {"--threads", "TANBO_THREADS", "N", "network threads (default: the number of cores)",
     set_threads},
    {"--durability", "TANBO_DURABILITY", "MODE",
     "normal (survives a crash of the server) or full (also a power loss; slower commits) "
     "(default normal)",
     set_durability},
    {"--store", "TANBO_STORE", "URL",
     "the database: postgresql://USER:PASSWORD@HOST/DB for PostgreSQL, or sqlite:FILE "
     "(default: the SQLite file tanbo.db in the data dir)",
     set_store},
    {"--room-threads", "TANBO_ROOM_THREADS", "N", "threads running the game rooms (default 1)",
     set_number<&Config::room_threads, 1, 1024>},
    {"--retention", "TANBO_RETENTION", "SECONDS",
     "a finished room (no rematch asked) or a waiting room everyone left leaves memory this long "
     "after; records stay in the database (default 600)",
     set_number<&Config::retention, 1, 30 * 86400>},
    {"--bot-threads", "TANBO_BOT_THREADS", "N",
     "threads deciding for CPU seats, apart from the rooms' (default 1)",
     set_number<&Config::bot_threads, 1, 256>},
    {"--bot-budget-ms", "TANBO_BOT_BUDGET_MS", "MS",
     "thinking time of the mcts CPU per decision (default 300)",
     set_number<&Config::bot_budget_ms, 10, 60000>},
    {"--takeover-grace", "TANBO_TAKEOVER_GRACE", "SECONDS",
     "a seated player away this long is played by the CPU until back (default 30)",
     set_number<&Config::takeover_grace, 1, 86400>},
    {"--timer-second-ms", "TANBO_TIMER_SECOND_MS", "MS",
     "the length of one second of every time control, clocks and correspondence days included: "
     "for tests and demonstrations only (default 1000)",
     set_number<&Config::timer_second_ms, 1, 1000>},
    {"--web-dir", "TANBO_WEB_DIR", "DIR",
     "the browser client's files, served at / (default web, relative to the working directory)",
     set_web_dir},
    {"--max-frame", "TANBO_MAX_FRAME", "BYTES",
     "largest WebSocket message; larger closes with 1009 (default 65536)",
     set_number<&Config::ws_message_max, 256, 64 * 1024>},
    {"--queue-max", "TANBO_QUEUE_MAX", "N",
     "outgoing frames queued per connection before it is dropped (default 256)",
     set_number<&Config::ws_queue_max, 8, 1 << 20>},
    {"--rate-burst", "TANBO_RATE_BURST", "N", "messages a connection may send at once (default 20)",
     set_number<&Config::rate_burst, 1, 1 << 20>},
    {"--rate", "TANBO_RATE", "N", "messages per second a connection may sustain (default 10)",
     set_number<&Config::rate_per_second, 1, 1 << 20>},
    {"--rate-strikes", "TANBO_RATE_STRIKES", "N",
     "rate_limited answers in a row before the connection is closed with 1008 (default 50)",
     set_number<&Config::rate_strikes, 0, 1 << 20>},
    {"--bot-rate-burst", "TANBO_BOT_RATE_BURST", "N", "--rate-burst for bots (default 20)",
     set_number<&Config::bot_rate_burst, 1, 1 << 20>},
    {"--bot-rate", "TANBO_BOT_RATE", "N", "--rate for bots' connections (default 4)",
     set_number<&Config::bot_rate_per_second, 1, 1 << 20>},
    {"--max-rooms", "TANBO_MAX_ROOMS", "N",
     "unfinished rooms one identity may have created (default 8)",
     set_number<&Config::max_rooms, 1, 1 << 20>},
    {"--idle-timeout", "TANBO_IDLE_TIMEOUT", "SECONDS",
     "close a connection silent this long; pings it at half (default 300)",
     set_number<&Config::idle_timeout, 2, 86400>},
    {"--max-connections", "TANBO_MAX_CONNECTIONS", "N",
     "open WebSocket connections; more are refused with 503 (default 10000)",
     set_number<&Config::max_connections, 1, 1 << 24>},
    {"--max-http-connections", "TANBO_MAX_HTTP_CONNECTIONS", "N",
     "open HTTP connections that are not WebSockets (yet); beyond, the oldest is closed "
     "(default 1024)",
     set_number<&Config::max_http, 8, 1 << 24>},
    {"--ws-per-address", "TANBO_WS_PER_ADDRESS", "N",
     "open WebSocket connections one client address may hold; more are refused with 429 "
     "(default 32)",
     set_number<&Config::ws_per_address, 1, 1 << 24>},
    {"--hello-timeout", "TANBO_HELLO_TIMEOUT", "SECONDS",
     "a WebSocket that has not said hello (and been welcomed) this long after connecting is "
     "closed with 1008 (default 10)",
     set_number<&Config::hello_timeout, 1, 3600>},
    {"--allowed-origins", "TANBO_ALLOWED_ORIGINS", "LIST",
     "origins (comma-separated, like https://play.example.org; * for any) whose pages may open "
     "/ws and send the API's POST, PUT and DELETE, besides the server's own (default: its own)",
     set_allowed_origins},
    {"--guests-per-minute", "TANBO_GUESTS_PER_MINUTE", "N",
     "new guest identities one address may make per minute; more: too_many_guests (default 10)",
     set_number<&Config::guests_per_minute, 1, 1 << 20>},
    {"--rooms-per-address", "TANBO_ROOMS_PER_ADDRESS", "N",
     "unfinished rooms the identities of one address may have created (default 16)",
     set_number<&Config::rooms_per_address, 1, 1 << 20>},
    {"--pool-wave-ms", "TANBO_POOL_WAVE_MS", "MS",
     "Play now: each pool pairs its seekers this often (default 2000)",
     set_number<&Config::pool_wave_ms, 50, 60000>},
    {"--pool-instant-rooms", "TANBO_POOL_INSTANT_ROOMS", "N",
     "Play now: a pool pairs at once when this many rooms' worth of seekers wait (default 8)",
     set_number<&Config::pool_instant_rooms, 1, 10000>},
    {"--trusted-proxies", "TANBO_TRUSTED_PROXIES", "LIST",
     "addresses or CIDR blocks (comma-separated) of proxies whose X-Forwarded-For names the "
     "client, for the per-address limits (default: none)",
     set_trusted_proxies},
    {"--queue-bytes", "TANBO_QUEUE_BYTES", "BYTES",
     "outgoing bytes queued per connection before it is dropped (default 4194304)",
     set_number<&Config::ws_queue_bytes, 4096, std::uint64_t(1) << 32>},
    {"--compression", "TANBO_COMPRESSION", "MODE",
     "on: WebSocket frames compressed (permessage-deflate) for the clients that ask for it, "
     "as browsers do; off: never (default on)",
     set_compression},
    {"--tls-cert", "TANBO_TLS_CERT", "FILE",
     "PEM certificate chain; with --tls-key the port speaks TLS only (https, wss)",
     set_file<&Config::tls_cert>},
    {"--tls-key", "TANBO_TLS_KEY", "FILE", "PEM private key of --tls-cert",
     set_file<&Config::tls_key>},
    {"--admin-token-file", "TANBO_ADMIN_TOKEN_FILE", "FILE",
     "enables the operators' API (/api/admin/...) behind the bearer token this file holds "
     "(default: no admin API)",
     set_file<&Config::admin_token_file>},
    {"--cluster", "TANBO_CLUSTER", "URL",
     "run as one node of several sharing redis://HOST[:PORT]: node registry, room owners, "
     "lobby across nodes (default: this node alone)",
     set_cluster},
    {"--node-id", "TANBO_NODE_ID", "ID",
     "this node's name in the cluster: letters, digits, '-', '_', '.' (default: a random one)",
     set_node_id},
    {"--cluster-lease-ms", "TANBO_CLUSTER_LEASE_MS", "MS",
     "the node's and its room-owner keys expire this long after the last renewal; renewed every "
     "third of it (default 5000)",
     set_number<&Config::cluster_lease_ms, 300, 3600000>},
    {"--ranked-requires-account", "TANBO_RANKED_REQUIRES_ACCOUNT", "",
     "ranked rooms, pools and challenges for accounts only, not guests (default off)",
     set_ranked_requires_account},
    {"--login-lockout", "TANBO_LOGIN_LOCKOUT", "SECONDS",
     "the longest wait between an account's login attempts once 5 failed (from 1 s, doubling), "
     "and how long an address waits after 20 failed logins (default 900)",
     set_number<&Config::login_lockout, 1, 86400>},
    {"--login-queue", "TANBO_LOGIN_QUEUE", "N",
     "password checks that may wait for the hashing thread; beyond, a login is answered 503 at "
     "once (default 64)",
     set_number<&Config::login_queue, 1, 100000>},
    {"--common-passwords", "TANBO_COMMON_PASSWORDS", "FILE",
     "common passwords, one a line, refused to a new password besides the built-in ones "
     "(default /usr/share/john/password.lst, from Debian's john-data)",
     set_file<&Config::common_passwords>},
    {"--session-expiry", "TANBO_SESSION_EXPIRY", "SECONDS",
     "an account's session (token) unused this long ends; 0: never (default 7776000, 90 days)",
     set_number<&Config::session_expiry, 0, 100LL * 365 * 86400>},
    {"--mail-command", "TANBO_MAIL_COMMAND", "COMMAND",
     "a sendmail-compatible command that reads a mail on its stdin, like \"/usr/sbin/sendmail "
     "-t -i\" (no shell; split at spaces): accounts may then keep a mail address and get a new "
     "password by mail (default: no mail)",
     set_mail_command},
    {"--mail-from", "TANBO_MAIL_FROM", "ADDRESS",
     "the From of the mails, like \"Tanbo <tanbo@example.org>\" (needed with --mail-command)",
     set_mail_from},
    {"--public-url", "TANBO_PUBLIC_URL", "URL",
     "the page's address as players reach it, like https://play.example.org: the links in the "
     "mails lead there (needed with --mail-command)",
     set_public_url},
    {"--mail-timeout", "TANBO_MAIL_TIMEOUT", "SECONDS",
     "a mail command still running this long is killed, its mail counted timed_out (default 30)",
     set_number<&Config::mail_timeout, 1, 600>},
    {"--healthcheck", "", "",
     "probe GET /healthz of the server at --bind/--port; exit 0 if healthy, 1 if not",
     set_healthcheck},
});

}  // namespace

std::span<const Option> config_options() { return kOptions; }

}  // namespace tanbo_server::server
