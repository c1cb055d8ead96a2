#include "server/metrics/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "engine/core/registry.hpp"
#include "server/net/context.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server::metrics {
namespace {

namespace pm = prometheus;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

constexpr std::size_t kStatuses = 3;  // protocol::RoomStatus: waiting, playing, finished

struct Metrics {
  std::shared_ptr<pm::Registry> registry = std::make_shared<pm::Registry>();

  pm::Family<pm::Counter>& rejected_family =
      pm::BuildCounter()
          .Name("tanbo_rejected_messages_total")
          .Help("Client messages answered with an error, by error code")
          .Register(*registry);
  std::array<pm::Counter*, protocol::kErrors.size()> rejected{};

  pm::Counter& actions = pm::BuildCounter()
                             .Name("tanbo_actions_accepted_total")
                             .Help("Actions (and resignations) the engine accepted")
                             .Register(*registry)
                             .Add({});

  pm::Family<pm::Counter>& cluster_family =
      pm::BuildCounter()
          .Name("tanbo_cluster_messages_total")
          .Help("A cluster's traffic between nodes and its takeovers, by kind")
          .Register(*registry);
  std::array<pm::Counter*, 7> cluster{&cluster_family.Add({{"kind", "forwarded"}}),
                                      &cluster_family.Add({{"kind", "served"}}),
                                      &cluster_family.Add({{"kind", "published"}}),
                                      &cluster_family.Add({{"kind", "delivered"}}),
                                      &cluster_family.Add({{"kind", "taken_over"}}),
                                      &cluster_family.Add({{"kind", "unknown_outcome"}}),
                                      &cluster_family.Add({{"kind", "link_reset"}})};

  pm::Gauge& stalled = pm::BuildGauge()
                           .Name("tanbo_rooms_stalled")
                           .Help("Rooms holding a change the store failed to take, retrying it")
                           .Register(*registry)
                           .Add({});
  pm::Counter& stalls = pm::BuildCounter()
                            .Name("tanbo_room_stalls_total")
                            .Help("Times a room met a store failure and began retrying")
                            .Register(*registry)
                            .Add({});

  pm::Family<pm::Gauge>& rooms_family = pm::BuildGauge()
                                            .Name("tanbo_rooms")
                                            .Help("Rooms listed in the lobby, by game and status")
                                            .Register(*registry);
  std::mutex rooms_mutex;
  std::map<std::string, std::array<pm::Gauge*, kStatuses>, std::less<>> rooms;

  pm::Histogram& broadcast =
      pm::BuildHistogram()
          .Name("tanbo_broadcast_latency_seconds")
          .Help("From a step committed to its state frame queued for every member of the room")
          .Register(*registry)
          .Add({}, pm::Histogram::BucketBoundaries{1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3,
                                                   2.5e-3, 5e-3, 0.01, 0.025, 0.05, 0.1});
  pm::Histogram& commit =
      pm::BuildHistogram()
          .Name("tanbo_commit_latency_seconds")
          .Help("From a room's journal append to the store's answer that it is durable")
          .Register(*registry)
          .Add({}, pm::Histogram::BucketBoundaries{1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 0.01,
                                                   0.025, 0.05, 0.1, 0.25, 0.5, 1});
  pm::Histogram& bot = pm::BuildHistogram()
                           .Name("tanbo_bot_decision_seconds")
                           .Help("Time a computer seat took to choose its action")
                           .Register(*registry)
                           .Add({}, pm::Histogram::BucketBoundaries{1e-3, 5e-3, 0.01, 0.05, 0.1,
                                                                    0.25, 0.5, 1, 2.5, 5, 10});

  pm::Family<pm::Gauge>& seekers_family =
      pm::BuildGauge()
          .Name("tanbo_pool_seekers")
          .Help("Play now: seekers waiting, by game (every pool of the game)")
          .Register(*registry);
  pm::Family<pm::Counter>& pairings_family =
      pm::BuildCounter()
          .Name("tanbo_pairings_total")
          .Help("Play now: seekers paired into a room with other people, by game")
          .Register(*registry);
  std::map<std::string, std::pair<pm::Gauge*, pm::Counter*>, std::less<>> pools;
  std::mutex pools_mutex;
  pm::Histogram& pairing_wait =
      pm::BuildHistogram()
          .Name("tanbo_pairing_wait_seconds")
          .Help("Play now: from seek to paired")
          .Register(*registry)
          .Add({}, pm::Histogram::BucketBoundaries{0.5, 1, 2, 3, 5, 10, 20, 30, 60, 120, 300});
  pm::Counter& cpu_fallbacks =
      pm::BuildCounter()
          .Name("tanbo_pairing_cpu_fallbacks_total")
          .Help("Play now: seekers given a room with the computer after their cpu_after")
          .Register(*registry)
          .Add({});

  pm::Family<pm::Counter>& frames_family =
      pm::BuildCounter()
          .Name("tanbo_state_frames_total")
          .Help("State frames a room wrote, by protocol version")
          .Register(*registry);
  pm::Counter& frames = frames_family.Add({{"protocol", "2"}});
  pm::Counter& v1_frames = frames_family.Add({{"protocol", "1"}});
  pm::Gauge& bot_connections = pm::BuildGauge()
                                   .Name("tanbo_bot_connections")
                                   .Help("WebSocket connections of bot accounts open")
                                   .Register(*registry)
                                   .Add({});
  pm::Counter& chat_lines = pm::BuildCounter()
                                .Name("tanbo_chat_lines_total")
                                .Help("Chat lines delivered to their readers")
                                .Register(*registry)
                                .Add({});
  pm::Family<pm::Counter>& admin_refused_family =
      pm::BuildCounter()
          .Name("tanbo_admin_refused_total")
          .Help("Admin API calls refused, by reason (unauthorized, throttled)")
          .Register(*registry);
  pm::Counter& admin_unauthorized = admin_refused_family.Add({{"reason", "unauthorized"}});
  pm::Counter& admin_throttled = admin_refused_family.Add({{"reason", "throttled"}});

  pm::Family<pm::Counter>& time_outs_family =
      pm::BuildCounter()
          .Name("tanbo_time_outs_total")
          .Help("Seats whose time ran out (a loss on time), by time control")
          .Register(*registry);
  pm::Counter& clock_time_outs = time_outs_family.Add({{"control", "clock"}});
  pm::Counter& correspondence_time_outs = time_outs_family.Add({{"control", "correspondence"}});

  pm::Family<pm::Counter>& logins_family =
      pm::BuildCounter()
          .Name("tanbo_logins_total")
          .Help(
              "Password and recovery code checks by result (ok, bad_login, bad_recovery, delayed, "
              "locked, busy)")
          .Register(*registry);
  pm::Family<pm::Counter>& account_events_family =
      pm::BuildCounter()
          .Name("tanbo_account_events_total")
          .Help(
              "Accounts claimed, logouts, password changes, recoveries, new recovery codes, "
              "deletions, and the mail ones (mail addresses asked, confirmed, removed; new "
              "passwords asked by mail, and set), by event")
          .Register(*registry);
  pm::Family<pm::Counter>& mail_family =
      pm::BuildCounter()
          .Name("tanbo_mail_total")
          .Help("Mails given to --mail-command, by result (sent, failed, timed_out, dropped)")
          .Register(*registry);
  // Every label child exists from the start, so a scrape shows zeros rather than nothing.
  std::map<std::string, pm::Counter*, std::less<>> logins = children(
      logins_family, "result", {"ok", "bad_login", "bad_recovery", "delayed", "locked", "busy"});
  std::map<std::string, pm::Counter*, std::less<>> account_events =
      children(account_events_family, "event",
               {"claimed", "logout", "logout_everywhere", "password_changed", "recovered",
                "recovery_code", "deleted", "mail_asked", "mail_confirmed", "mail_removed",
                "reset_asked", "reset_mailed", "reset_limited", "password_reset"});
  std::map<std::string, pm::Counter*, std::less<>> mails =
      children(mail_family, "result", {"sent", "failed", "timed_out", "dropped"});

  static std::map<std::string, pm::Counter*, std::less<>> children(
      pm::Family<pm::Counter>& family, const std::string& label,
      std::initializer_list<const char*> values) {
    std::map<std::string, pm::Counter*, std::less<>> out;
    for (const char* v : values) out[v] = &family.Add({{label, v}});
    return out;
  }

  std::pair<pm::Gauge*, pm::Counter*> pool_of(std::string_view game) {
    std::lock_guard lock(pools_mutex);
    auto it = pools.find(game);
    if (it != pools.end()) return it->second;
    auto entry = std::pair(&seekers_family.Add({{"game", std::string(game)}}),
                           &pairings_family.Add({{"game", std::string(game)}}));
    return pools.emplace(std::string(game), entry).first->second;
  }

  Metrics() {
    for (const auto* game : engine::all_games()) pool_of(game->id);
    // Every code from the start: a rate() over a series that appears late misses its first rise.
    for (const auto& e : protocol::kErrors)
      rejected[std::size_t(e.code)] = &rejected_family.Add({{"code", std::string(e.name)}});
    for (const auto* game : engine::all_games()) rooms_of(game->id);
  }

  std::array<pm::Gauge*, kStatuses>& rooms_of(std::string_view game) {
    auto it = rooms.find(game);
    if (it != rooms.end()) return it->second;
    std::array<pm::Gauge*, kStatuses> g{};
    for (std::size_t s = 0; s < kStatuses; ++s)
      g[s] = &rooms_family.Add(
          {{"game", std::string(game)},
           {"status", std::string(protocol::to_string(protocol::RoomStatus(s)))}});
    return rooms.emplace(std::string(game), g).first->second;
  }
};

Metrics& the() {
  static Metrics m;
  return m;
}

// ---- what is not in the registry: per-server network counters and the process -----------------

pm::MetricFamily family(std::string name, std::string help, pm::MetricType type, double value) {
  pm::ClientMetric m;
  if (type == pm::MetricType::Counter)
    m.counter.value = value;
  else
    m.gauge.value = value;
  return {std::move(name), std::move(help), type, {m}};
}

struct ProcessFigures {
  double rss_bytes = 0;
  double cpu_seconds = 0;
  double threads = 0;
  double open_fds = 0;
  double max_fds = 0;
};

// Linux only (/proc): prometheus-cpp has no process collector.
ProcessFigures process_figures() {
  ProcessFigures p;
  {
    std::ifstream statm("/proc/self/statm");
    double size = 0, resident = 0;
    if (statm >> size >> resident) p.rss_bytes = resident * double(sysconf(_SC_PAGESIZE));
  }
  {
    std::ifstream stat("/proc/self/stat");
    std::string line;
    std::getline(stat, line);
    // The command name may hold spaces: fields are counted after its closing parenthesis.
    auto close = line.rfind(')');
    if (close != std::string::npos) {
      std::istringstream rest(line.substr(close + 2));
      std::vector<std::string> f{std::istream_iterator<std::string>(rest), {}};
      // From field 3 (state) on: utime is field 14, stime 15, num_threads 20.
      if (f.size() > 17) {
        double ticks = double(sysconf(_SC_CLK_TCK));
        p.cpu_seconds = (std::stod(f[11]) + std::stod(f[12])) / ticks;
        p.threads = std::stod(f[17]);
      }
    }
  }
  if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    p.max_fds = double(lim.rlim_cur);
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++p.open_fds;
  return p;
}

}  // namespace

void rejected(protocol::ErrorCode code) { the().rejected[std::size_t(code)]->Increment(); }

void action_accepted() { the().actions.Increment(); }

void room_stalled(bool now) {
  auto& m = the();
  if (!now) return m.stalled.Decrement();
  m.stalled.Increment();
  m.stalls.Increment();
}

void cluster(Cluster what, std::uint64_t n) {
  if (n) the().cluster[std::size_t(what)]->Increment(double(n));
}

void room_moved(std::string_view game, std::optional<protocol::RoomStatus> from,
                std::optional<protocol::RoomStatus> to) {
  if (from == to) return;
  auto& m = the();
  std::lock_guard lock(m.rooms_mutex);
  auto& g = m.rooms_of(game);
  if (from) g[std::size_t(*from)]->Decrement();
  if (to) g[std::size_t(*to)]->Increment();
}

void pool_seekers(std::string_view game, double waiting) {
  the().pool_of(game).first->Set(waiting);
}
void paired(std::string_view game, std::chrono::milliseconds waited) {
  the().pool_of(game).second->Increment();
  the().pairing_wait.Observe(seconds(waited));
}
void pairing_cpu_fallback() { the().cpu_fallbacks.Increment(); }
void chat_line() { the().chat_lines.Increment(); }
void state_frame(int protocol) { (protocol == 1 ? the().v1_frames : the().frames).Increment(); }

void bot_connection(bool open) {
  open ? the().bot_connections.Increment() : the().bot_connections.Decrement();
}
void admin_refused(std::string_view reason) {
  (reason == "throttled" ? the().admin_throttled : the().admin_unauthorized).Increment();
}
void time_out(bool correspondence) {
  (correspondence ? the().correspondence_time_outs : the().clock_time_outs).Increment();
}

void login(std::string_view result) {
  if (auto it = the().logins.find(result); it != the().logins.end()) it->second->Increment();
}
void account(std::string_view event) {
  if (auto it = the().account_events.find(event); it != the().account_events.end())
    it->second->Increment();
}

void mail(std::string_view result) {
  if (auto it = the().mails.find(result); it != the().mails.end()) it->second->Increment();
}

void observe_broadcast(Clock::time_point committed) {
  the().broadcast.Observe(seconds(Clock::now() - committed));
}
void observe_commit(Clock::time_point appended) {
  the().commit.Observe(seconds(Clock::now() - appended));
}
void observe_bot_decision(Clock::duration took) { the().bot.Observe(seconds(took)); }

namespace {

using Families = std::vector<pm::MetricFamily>;

// The listener's and the connections' counters.
void add_network(Families& families, const NetContext& ctx) {
  const auto& c = ctx.counters;
  auto load = [](const auto& a) { return double(a.load(std::memory_order_relaxed)); };
  using T = pm::MetricType;
  families.push_back(
      family("tanbo_connections", "WebSocket connections open", T::Gauge, load(c.ws_live)));
  families.push_back(family("tanbo_connections_opened_total", "WebSocket connections opened",
                            T::Counter, load(c.ws_opened)));
  families.push_back(family("tanbo_connections_refused_total",
                            "WebSocket upgrades refused: --max-connections reached", T::Counter,
                            load(c.ws_refused)));
  families.push_back(family("tanbo_connections_refused_per_address_total",
                            "WebSocket upgrades refused 429: --ws-per-address reached", T::Counter,
                            load(c.ws_refused_address)));
  families.push_back(family("tanbo_connections_hello_timeouts_total",
                            "WebSockets closed 1008 for want of a hello: --hello-timeout",
                            T::Counter, load(c.ws_hello_timeouts)));
  families.push_back(family("tanbo_connections_dropped_slow_total",
                            "WebSockets closed 1008 because their outgoing queue overflowed",
                            T::Counter, load(c.ws_dropped_slow)));
  families.push_back(family("tanbo_tls_handshake_failures_total",
                            "TLS handshakes that failed (plain clients on the TLS port included)",
                            T::Counter, load(c.tls_failed)));
  families.push_back(family("tanbo_http_requests_total", "HTTP requests read (upgrades included)",
                            T::Counter, load(c.http_requests)));
  families.push_back(family("tanbo_http_connections",
                            "HTTP connections open that are not WebSockets (yet)", T::Gauge,
                            double(ctx.http_slots.size())));
  families.push_back(family("tanbo_http_evicted_total",
                            "HTTP connections closed to make room: --max-http-connections reached",
                            T::Counter, load(c.http_evicted)));
  families.push_back(family("tanbo_http_headers_too_large_total",
                            "requests answered 431: headers over 16 KiB", T::Counter,
                            load(c.headers_too_big)));
  families.push_back(family("tanbo_http_bad_origin_total",
                            "requests refused 403: an Origin --allowed-origins does not admit",
                            T::Counter, load(c.bad_origin)));
  families.push_back(family("tanbo_http_bad_content_type_total",
                            "API requests refused 415: a body that is not application/json",
                            T::Counter, load(c.bad_content_type)));
  families.push_back(family("tanbo_accept_failures_total",
                            "connections the listener failed to accept (out of file descriptors, "
                            "say); it backs off meanwhile",
                            T::Counter, load(c.accept_failed)));
  families.push_back(family("tanbo_messages_in_total", "WebSocket messages read", T::Counter,
                            load(c.ws_messages_in)));
  families.push_back(family("tanbo_messages_out_total", "WebSocket messages written", T::Counter,
                            load(c.ws_messages_out)));
  families.push_back(family("tanbo_bytes_in_total", "WebSocket payload bytes read", T::Counter,
                            load(c.ws_bytes_in)));
  families.push_back(family("tanbo_bytes_out_total", "WebSocket payload bytes written", T::Counter,
                            load(c.ws_bytes_out)));
}

// The store's health and the commits whose answer was lost.
void add_store(Families& families, const store::StoreWorker& store) {
  using T = pm::MetricType;
  families.push_back(family("tanbo_store_healthy",
                            "1 while the store's writes succeed, 0 from a failure until a "
                            "commit succeeds again (/healthz degraded)",
                            T::Gauge, store.healthy() ? 1 : 0));
  const auto d = store.doubts();
  auto doubts =
      family("tanbo_store_doubts_total",
             "groups whose COMMIT lost its answer, by what the database said after", T::Counter, 0);
  doubts.metric.clear();
  for (const auto& [outcome, n] :
       {std::pair{"written", d.written}, std::pair{"not_written", d.not_written},
        std::pair{"unsettled", d.unsettled}}) {
    pm::ClientMetric m;
    m.label = {{"outcome", outcome}};
    m.counter.value = double(n);
    doubts.metric.push_back(std::move(m));
  }
  families.push_back(std::move(doubts));
}

// The process as Prometheus's client libraries name its figures.
void add_process(Families& families, Clock::time_point started) {
  using T = pm::MetricType;
  auto p = process_figures();
  families.push_back(family("process_resident_memory_bytes", "Resident memory size in bytes",
                            T::Gauge, p.rss_bytes));
  families.push_back(family("process_cpu_seconds_total", "User and system CPU time in seconds",
                            T::Counter, p.cpu_seconds));
  families.push_back(family("process_threads", "Threads of the process", T::Gauge, p.threads));
  families.push_back(family("process_open_fds", "Open file descriptors", T::Gauge, p.open_fds));
  families.push_back(
      family("process_max_fds", "Maximum number of open file descriptors", T::Gauge, p.max_fds));
  families.push_back(family("process_uptime_seconds", "Seconds since the server started", T::Gauge,
                            seconds(Clock::now() - started)));
}

}  // namespace

std::string render(const NetContext& ctx) {
  auto families = the().registry->Collect();
  add_network(families, ctx);
  if (ctx.store) add_store(families, *ctx.store);
  add_process(families, ctx.started);

  std::ostringstream out;
  pm::TextSerializer().Serialize(out, families);
  return std::move(out).str();
}

}  // namespace tanbo_server::server::metrics
