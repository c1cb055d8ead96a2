#pragma once
// The server's settings: each flag also has an environment variable; a flag wins over its
// variable, which wins over the default. An empty variable counts as unset.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tanbo_server::server {

struct Config {
  std::string bind = "0.0.0.0";  // an IPv4 or IPv6 address
  std::uint16_t port = 8080;     // 0 asks the kernel for a free port
  std::filesystem::path data_dir = "./data";
  std::string log_level = "info";  // a spdlog level name
  unsigned threads = 1;            // parse_config sets the default: the hardware's cores
  bool healthcheck = false;        // probe /healthz of a running server and exit 0 or 1
  // normal or full: SQLite synchronous=NORMAL (survives a crash) or FULL (also a power loss).
  std::string durability = "normal";
  // The database: empty for the SQLite file tanbo.db in data_dir; postgresql://... for PostgreSQL;
  // sqlite:FILE or FILE for another SQLite file.
  std::string store;

  // Limits (docs/protocol.md, "Limits").
  std::size_t ws_message_max = 64 * 1024;  // largest WebSocket message read (else close 1009)
  std::size_t ws_queue_max = 256;          // queued outgoing frames before a session is dropped
  std::size_t http_body_max = 64 * 1024;   // largest HTTP request body
  unsigned rate_burst = 20;                // messages: token bucket capacity per connection
  unsigned rate_per_second = 10;           // messages: sustained refill
  unsigned rate_strikes = 50;              // rate_limited answers before close 1008
  unsigned bot_rate_burst = 20;            // a bot's connection: its token bucket's capacity
  unsigned bot_rate_per_second = 4;        // ...and its refill
  unsigned max_rooms = 8;                  // unfinished rooms one identity may have created
  unsigned idle_timeout = 300;             // seconds without a frame or pong before closing
  std::size_t max_connections = 10000;     // open WebSocket connections; beyond: 503
  std::size_t max_http = 1024;             // open HTTP connections not (yet) WebSockets
  unsigned guests_per_minute = 10;         // new identities one address may make per minute
  unsigned rooms_per_address = 16;         // unfinished rooms the identities of one address own
  unsigned pool_wave_ms = 2000;            // Play now: a pairing wave this often...
  unsigned pool_instant_rooms = 8;         // ...or at once when a pool holds this many rooms' worth
  // Proxies whose X-Forwarded-For names the client (addresses or CIDR blocks); empty: none.
  std::vector<std::string> trusted_proxies;
  // Open WebSockets of one client address; beyond: 429.
  std::size_t ws_per_address = 32;
  // Seconds a WebSocket has to be welcomed after the upgrade; then it is closed 1008.
  unsigned hello_timeout = 10;
  // Origins (scheme://host[:port], or "*") whose pages may use /ws and the API besides the
  // server's own; empty: its own only.
  std::vector<std::string> allowed_origins;
  unsigned room_threads = 1;             // threads running the rooms
  unsigned retention = 600;              // seconds an idle finished/waiting room stays in memory
  unsigned bot_threads = 1;              // threads deciding for CPU seats
  unsigned bot_budget_ms = 300;          // mcts thinking time per CPU decision
  unsigned takeover_grace = 30;          // seconds away before the CPU plays a seat
  unsigned timer_second_ms = 1000;       // the length of a time control's second (tests shorten it)
  bool ranked_requires_account = false;  // ranked rooms and pools for accounts only
  unsigned login_lockout = 900;          // seconds: an account's longest wait, an address's lock
  unsigned login_queue = 64;             // password checks waiting for the hashing thread
  // Common passwords refused to new passwords, one a line (Debian's john-data installs this one)
  std::string common_passwords = "/usr/share/john/password.lst";
  std::int64_t session_expiry = 90LL * 86400;  // seconds an account's unused token lasts; 0: ever
  std::size_t ws_queue_bytes = 4 << 20;        // queued outgoing bytes before a session is dropped
  // permessage-deflate (RFC 7692) for the clients that offer it: false answers every client
  // uncompressed.
  bool compression = true;
  std::string tls_cert;          // PEM certificate chain; with tls_key: the port speaks TLS only
  std::string tls_key;           // PEM private key
  std::string admin_token_file;  // the operators' bearer token; empty: no admin API
  std::filesystem::path web_dir = "web";  // the browser client's files, served at /
  // Mail (docs/operations.md, "Mail"): a sendmail-compatible command that reads a message on its
  // stdin; empty: no mail (accounts keep their recovery codes alone). With it, the From header
  // and the page's address the links in the mails open.
  std::string mail_command;
  std::string mail_from;
  std::string public_url;      // http[s]://host[:port][/path], without a trailing '/'
  unsigned mail_timeout = 30;  // seconds a mail command may run before it is killed

  // Several nodes on one Redis (docs/operations.md, "Cluster (Redis)"); empty: this node alone.
  std::string cluster;               // redis://HOST[:PORT]
  std::string node_id;               // empty: a random one at start
  unsigned cluster_lease_ms = 5000;  // node and room-owner keys expire this long after renewal

  bool operator==(const Config&) const = default;
};

struct HelpRequested {};
struct VersionRequested {};
struct ConfigError {
  std::string message;  // names the flag or variable and what is wrong with it
};
using ParseOutcome = std::variant<Config, HelpRequested, VersionRequested, ConfigError>;

// Looks up an environment variable; nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
std::optional<std::string> process_env(const std::string& name);

// args excludes the program name.
ParseOutcome parse_config(std::span<const std::string_view> args, const EnvLookup& env);
ParseOutcome parse_config(int argc, const char* const* argv);

std::string usage();

}  // namespace tanbo_server::server
