#pragma once
// The server's Prometheus metrics: one registry, named families (docs/operations.md, "Metrics").
// Every update is a call into this module on an atomic counter whose label child was looked up
// once; this header pulls in no Prometheus code, so the rooms include it freely.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/errors.hpp"
#include "protocol/server.hpp"

namespace tanbo_server::server {
struct NetContext;
}

namespace tanbo_server::server::metrics {

using Clock = std::chrono::steady_clock;

void rejected(protocol::ErrorCode code);  // an `error` answered to a client message
void action_accepted();                   // an act or resign the engine accepted
// A room began (true) or ended (false) holding a change the store failed to take.
void room_stalled(bool now);
// A room entered `to` from `from` (nullopt: not listed in the lobby). Called on a change of
// status only, so the label lookup here is off the per-message path.
void room_moved(std::string_view game, std::optional<protocol::RoomStatus> from,
                std::optional<protocol::RoomStatus> to);
void observe_broadcast(Clock::time_point committed);  // step committed -> every frame queued
void observe_commit(Clock::time_point appended);      // journal append -> done
void observe_bot_decision(Clock::duration took);      // one computer seat's choice

// A cluster's traffic between nodes (server/cluster/relay.hpp) and its takeovers.
enum class Cluster {
  forwarded,        // a request sent to the node running its room
  served,           // a request another node sent here
  published,        // a message published to another node (a frame to several peers counts once)
  delivered,        // a frame from another node written to a connection here
  taken_over,       // a room of a node gone, rebuilt here
  unknown_outcome,  // a request Redis did not answer for: it may or may not have arrived
  link_reset        // messages between two nodes lost: the link's connections start again
};
void cluster(Cluster what, std::uint64_t n = 1);

// Play now (server/pairing/): seekers waiting per game, as the last wave counted them; each
// room a wave made, with the time each of its seekers waited; rooms with the computer instead.
void pool_seekers(std::string_view game, double waiting);
void paired(std::string_view game, std::chrono::milliseconds waited);
void pairing_cpu_fallback();
void bot_connection(bool open);  // a bot's connection said hello (or became one), or closed
void chat_line();                // a chat line delivered (stored, then sent to its readers)
void state_frame(int protocol);  // a room's state frame written, in that version's names
// An admin call refused: "unauthorized" (no valid token), "throttled" (too many of those).
void admin_refused(std::string_view reason);
// A seat lost (or left a 3-4 player game) on time; `correspondence`: by correspondence, else a
// game clock.
void time_out(bool correspondence);
// Accounts (server/accounts/): a login's outcome ("ok", "bad_login", "locked"), and the other
// events of accounts ("claimed", "logout", "logout_everywhere", "password_changed", "deleted").
void login(std::string_view result);
void account(std::string_view event);
// A mail's fate (server/mail/mailer.hpp): "sent", "failed" (the command said no, or could not
// start), "timed_out" (killed), "dropped" (the queue was full).
void mail(std::string_view result);

// Observes the time from its construction to its end: one line at a hook.
class ScopeTimer {
 public:
  explicit ScopeTimer(void (*observe)(Clock::time_point)) : observe_(observe) {}
  ~ScopeTimer() { observe_(start_); }
  ScopeTimer(const ScopeTimer&) = delete;
  ScopeTimer& operator=(const ScopeTimer&) = delete;

 private:
  void (*observe_)(Clock::time_point);
  Clock::time_point start_ = Clock::now();
};

// The Prometheus text exposition (format 0.0.4): the registry, the network counters of `ctx`
// and the process's memory, CPU, threads and descriptors (read from /proc/self).
std::string render(const NetContext& ctx);

inline constexpr std::string_view kContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace tanbo_server::server::metrics
