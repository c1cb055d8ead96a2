#include "bench/load/load.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <fstream>
#include <future>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/load/scan.hpp"
#include "bench/load/wire.hpp"

namespace tanbo_server::load {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using Json = nlohmann::json;
using SteadyClock = std::chrono::steady_clock;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(SteadyClock::now().time_since_epoch())
      .count();
}

constexpr std::int64_t kNever = INT64_MAX;
constexpr std::uint64_t kNoVersion = ~std::uint64_t{0};
constexpr std::size_t kSentSlots = 64;  // acts in flight per room whose send time is kept

// What the run's controller tells every worker; each worker only reads it.
struct Shared {
  std::atomic<std::int64_t> window_start{kNever};
  std::atomic<std::int64_t> window_end{kNever};
  std::atomic<bool> stopping{false};
  // Set when every room is playing: until then no one acts, so the rooms already set up do not
  // starve the connections still opening.
  std::atomic<bool> playing{false};
  bool in_window(std::int64_t t) const {
    return t >= window_start.load(std::memory_order_relaxed) &&
           t < window_end.load(std::memory_order_relaxed);
  }
};

// One worker's counts, merged once the threads have stopped.
struct Stats {
  std::uint64_t accepted = 0, accepted_in_window = 0, refused = 0;
  std::uint64_t messages = 0, bytes = 0, messages_total = 0, bytes_total = 0;
  std::uint64_t connect_failed = 0, closed_by_server = 0, unreadable = 0, setup_refused = 0;
  std::map<std::string, std::uint64_t, std::less<>> errors;       // by code
  std::map<std::string, std::uint64_t, std::less<>> close_codes;  // server closes, by code
  std::vector<std::uint32_t> latency_player_us, latency_spectator_us;
  // Play now (--seek): seeks paired, and the time from each seek to its `paired`.
  std::uint64_t pairings = 0, pairings_in_window = 0, seek_games_finished = 0;
  std::vector<std::uint32_t> seek_to_paired_us;
};

class Worker;
struct RoomDriver;

enum class Role : std::uint8_t { player, spectator, idle, seeker };

// One WebSocket client: connect, handshake, hello, then a read loop and a write queue. Its
// room (or the lobby, when idle) decides what to send.
class Conn : public std::enable_shared_from_this<Conn> {
 public:
  Conn(Worker& w, RoomDriver* room, Role role, int index, const Endpoint& server);
  void dial();
  void send(std::string text);
  void close();
  bool open() const { return open_; }
  // What this connection's socket has received over the wire so far.
  std::uint64_t wire_bytes() {
    return open_ ? tcp_bytes_received(beast::get_lowest_layer(ws_).socket().native_handle()) : 0;
  }

  RoomDriver* room;
  const Role role;
  const int index;  // seat for players, join order for spectators
  // Playing: the version acted on, whether its outcome is still awaited, its request id.
  std::uint64_t acted_version = kNoVersion, act_version = kNoVersion, rematch_version = kNoVersion;
  bool act_pending = false, saw_start = false;
  std::int64_t act_id = 0, act_sent = 0;
  std::unique_ptr<net::steady_timer> think;
  std::string held_legal;  // the legal actions of acted_version, held until the play starts
  // A seeker's: when its seek left, and the room it was paired into (as a JSON string).
  std::int64_t seek_sent = 0;
  std::string seek_room_json;

 private:
  void on_connect(beast::error_code ec);
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void do_close();
  void fail(beast::error_code ec);
  void on_message(std::string_view text);
  void seek();
  void on_seeker_message(const Scanned& s, std::int64_t t);

  Worker& w_;
  const Endpoint& server_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> out_;
  bool writing_ = false, open_ = false, dialing_ = false, closing_ = false, dead_ = false;
};

// A room as its connections play it: player 0 creates it, the spectators join, then the other
// players; every finished game is rematched so the load never pauses.
struct RoomDriver {
  Worker& w;
  std::string id, id_json;  // id_json: the id as a JSON string, spliced into requests
  std::vector<std::shared_ptr<Conn>> players, spectators;
  int welcomed = 0, spectators_joined = 0;
  bool started = false, playing = false;
  std::size_t caught_up = 0;  // connections that have seen the first game start
  std::uint64_t max_version = 0, games_started = 0, games_finished = 0;
  std::array<std::uint64_t, kSentSlots> sent_version{};
  std::array<std::int64_t, kSentSlots> sent_at{};

  explicit RoomDriver(Worker& worker) : w(worker) { sent_version.fill(kNoVersion); }
  std::size_t size() const { return players.size() + spectators.size(); }
  void on_welcome();
  void on_created(std::string_view room);
  void on_joined(Conn& c);
  void join_players();
  void on_state(Conn& c, const Scanned& s, std::int64_t t);
  void act(Conn& c, std::uint64_t version, std::string_view legal);
  void play();
};

class Worker {
 public:
  Worker(const Options& o, Shared& shared, int index)
      : options(o), shared(shared), rng(o.seed * 1000003 + std::uint64_t(index)) {}

  // Connections wait their turn so at most dial_window are in their handshake at once.
  void dial(std::shared_ptr<Conn> c) {
    queue_.push_back(std::move(c));
    pump();
  }
  void dialed() {
    --dialing_;
    pump();
  }
  void start() {
    for (auto& r : rooms) {
      for (auto& c : r->players) dial(c);
      for (auto& c : r->spectators) dial(c);
    }
    for (auto& c : idle) dial(c);
    for (auto& c : seekers) dial(c);
  }
  void play() {
    for (auto& r : rooms) r->play();
  }
  void close_all() {
    for (auto& r : rooms) {
      for (auto& c : r->players) c->close();
      for (auto& c : r->spectators) c->close();
    }
    for (auto& c : idle) c->close();
    for (auto& c : seekers) c->close();
  }
  std::int64_t next_id() { return ++ids_; }
  // On the worker's thread: what its open connections have received over the wire.
  std::uint64_t wire_bytes() {
    std::uint64_t n = 0;
    for (auto& r : rooms) {
      for (auto& c : r->players) n += c->wire_bytes();
      for (auto& c : r->spectators) n += c->wire_bytes();
    }
    for (auto& c : idle) n += c->wire_bytes();
    for (auto& c : seekers) n += c->wire_bytes();
    return n;
  }

  const Options& options;
  Shared& shared;
  net::io_context ioc{1};
  std::vector<std::unique_ptr<RoomDriver>> rooms;
  std::vector<std::shared_ptr<Conn>> idle, seekers;
  Stats stats;
  std::mt19937_64 rng;
  std::vector<std::string_view> legal;  // scratch
  std::atomic<int> rooms_started{0}, open{0}, outstanding{0}, finished{0};

 private:
  void pump() {
    while (dialing_ < options.dial_window && !queue_.empty()) {
      ++dialing_;
      auto c = std::move(queue_.front());
      queue_.pop_front();
      c->dial();
    }
  }
  std::deque<std::shared_ptr<Conn>> queue_;
  int dialing_ = 0;
  std::int64_t ids_ = 100;  // 1 and 2 are the set-up requests
};

// ---- Conn -----------------------------------------------------------------------------------

Conn::Conn(Worker& w, RoomDriver* r, Role ro, int i, const Endpoint& server)
    : room(r), role(ro), index(i), w_(w), server_(server), ws_(w.ioc.get_executor()) {}

void Conn::dial() {
  dialing_ = true;
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
  tcp::endpoint ep(net::ip::make_address(server_.host), server_.port);
  beast::get_lowest_layer(ws_).async_connect(
      ep, [self = shared_from_this()](beast::error_code ec) { self->on_connect(ec); });
}

void Conn::on_connect(beast::error_code ec) {
  if (ec || closing_) return fail(ec);
  beast::get_lowest_layer(ws_).socket().set_option(tcp::no_delay(true));
  ws_.read_message_max(1 << 20);
  if (w_.options.deflate) {
    websocket::permessage_deflate pmd;
    pmd.client_enable = true;
    pmd.client_max_window_bits = 15;  // offered, so that a server may ask for less
    ws_.set_option(pmd);
  }
  ws_.async_handshake(server_.host + ":" + std::to_string(server_.port), server_.target,
                      [self = shared_from_this()](beast::error_code e) { self->on_handshake(e); });
}

void Conn::on_handshake(beast::error_code ec) {
  if (ec || closing_) return fail(ec);
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::client));
  ws_.text(true);
  open_ = true;
  w_.open.fetch_add(1, std::memory_order_relaxed);
  send(R"({"type":"hello","id":1,"protocol":2})");
  do_read();
}

void Conn::do_read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->on_read(ec, n);
  });
}

void Conn::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) return fail(ec);
  // Diagnosis only: an acknowledgement per read, which hides a sender's Nagle delays.
  if (w_.options.quickack) {
    int one = 1;
    int fd = beast::get_lowest_layer(ws_).socket().native_handle();
    setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one, sizeof one);
  }
  auto data = buffer_.cdata();
  on_message({static_cast<const char*>(data.data()), bytes});
  buffer_.consume(buffer_.size());
  do_read();
}

void Conn::send(std::string text) {
  if (!open_ || closing_) return;
  out_.push_back(std::move(text));
  if (!writing_) do_write();
}

void Conn::do_write() {
  writing_ = true;
  ws_.async_write(
      net::buffer(out_.front()),
      [self = shared_from_this()](beast::error_code ec, std::size_t n) { self->on_write(ec, n); });
}

void Conn::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (ec) return fail(ec);
  out_.pop_front();
  if (closing_) return do_close();
  if (!out_.empty()) do_write();
}

void Conn::close() {
  if (closing_ || dead_) return;
  closing_ = true;
  if (think) think->cancel();
  if (!open_) {  // still dialing: the handshake's failure or success finds closing_ set
    dead_ = true;
    w_.finished.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  if (!writing_) do_close();
}

// One close at a time and never during a write: Beast allows one of each kind in flight.
void Conn::do_close() {
  out_.clear();
  ws_.async_close(websocket::close_code::normal, [self = shared_from_this()](beast::error_code) {
    if (!self->dead_) {
      self->dead_ = true;
      self->w_.finished.fetch_add(1, std::memory_order_relaxed);
    }
  });
}

void Conn::fail(beast::error_code ec) {
  if (dialing_) {  // frees its place in the dial window, whatever the stage it failed at
    dialing_ = false;
    w_.dialed();
  }
  if (dead_) return;  // a read and a write may both fail on one connection: count it once
  dead_ = true;
  w_.finished.fetch_add(1, std::memory_order_relaxed);
  if (!closing_) {
    if (!open_) {
      ++w_.stats.connect_failed;
    } else {
      if (ec == websocket::error::closed) ++w_.stats.close_codes[std::to_string(ws_.reason().code)];
      ++w_.stats.closed_by_server;
    }
  }
  if (act_pending) {
    act_pending = false;
    w_.outstanding.fetch_sub(1, std::memory_order_relaxed);
  }
  if (open_) w_.open.fetch_sub(1, std::memory_order_relaxed);
  open_ = false;
}

void Conn::on_message(std::string_view text) {
  std::int64_t t = now_ns();
  auto& st = w_.stats;
  ++st.messages_total;
  st.bytes_total += text.size();
  if (w_.shared.in_window(t)) {
    ++st.messages;
    st.bytes += text.size();
  }
  Scanned s;
  if (!scan(text, s)) {
    ++st.unreadable;
    return;
  }
  if (role == Role::seeker) return on_seeker_message(s, t);
  if (s.type == "state") {
    if (room && s.version) room->on_state(*this, s, t);
  } else if (s.type == "error") {
    std::string_view code = s.code.empty() ? std::string_view("?") : s.code;
    auto it = st.errors.find(code);
    if (it == st.errors.end()) it = st.errors.emplace(std::string(code), 0).first;
    ++it->second;
    // The act was refused: its error names its id, or has none (null) when it had none.
    if (act_pending &&
        s.re == (w_.options.acts_without_id ? std::string("null") : std::to_string(act_id))) {
      act_pending = false;
      ++st.refused;
      w_.outstanding.fetch_sub(1, std::memory_order_relaxed);
    } else if (s.re == "1" || s.re == "2") {
      ++st.setup_refused;  // hello, create or join refused: this room never starts
    }
  } else if (s.type == "welcome") {
    dialing_ = false;
    w_.dialed();
    if (room) {
      room->on_welcome();
    } else {
      send(R"({"type":"watch_lobby"})");
    }
  } else if (s.type == "created") {
    if (room) room->on_created(s.room);
  } else if (s.type == "joined") {
    if (room) room->on_joined(*this);
  }
}

// ---- Play now: seek, play the game paired into, seek again ------------------------------------

void Conn::seek() {
  if (w_.shared.stopping.load(std::memory_order_relaxed)) return;
  Json m = {{"type", "seek"},
            {"id", w_.next_id()},
            {"game", w_.options.game},
            {"players", w_.options.players_per_room}};
  if (!w_.options.game_options.empty()) m["options"] = Json::parse(w_.options.game_options);
  seek_sent = now_ns();
  seek_room_json.clear();
  send(m.dump());
}

void Conn::on_seeker_message(const Scanned& s, std::int64_t t) {
  auto& st = w_.stats;
  if (s.type == "welcome") {
    dialing_ = false;
    w_.dialed();
    return seek();
  }
  if (s.type == "paired") {
    ++st.pairings;
    if (w_.shared.in_window(t)) ++st.pairings_in_window;
    if (w_.shared.in_window(seek_sent))
      st.seek_to_paired_us.push_back(std::uint32_t((t - seek_sent) / 1000));
    seek_room_json = Json(std::string(s.room)).dump();
    return;
  }
  if (s.type == "error") {
    std::string_view code = s.code.empty() ? std::string_view("?") : s.code;
    auto it = st.errors.find(code);
    if (it == st.errors.end()) it = st.errors.emplace(std::string(code), 0).first;
    ++it->second;
    return;
  }
  if (s.type != "state" || seek_room_json.empty() || !s.version) return;
  if (s.status == "finished") {
    ++st.seek_games_finished;
    return seek();
  }
  if (s.legal.empty() || *s.version == acted_version ||
      w_.shared.stopping.load(std::memory_order_relaxed))
    return;
  acted_version = *s.version;
  if (!split_array(s.legal, w_.legal) || w_.legal.empty()) {
    ++st.unreadable;
    return;
  }
  std::string_view action = w_.legal[w_.rng() % w_.legal.size()];
  std::string m = R"({"type":"act","room":)" + seek_room_json + R"(,"version":)" +
                  std::to_string(*s.version) + R"(,"action":)" + std::string(action) + "}";
  send(std::move(m));
}

// ---- RoomDriver -------------------------------------------------------------------------------

void RoomDriver::on_welcome() {
  if (++welcomed != int(size())) return;
  Json create = {{"type", "create"},
                 {"id", 2},
                 {"game", w.options.game},
                 {"players", w.options.players_per_room}};
  if (!w.options.game_options.empty()) create["options"] = Json::parse(w.options.game_options);
  players.front()->send(create.dump());
}

void RoomDriver::on_created(std::string_view room) {
  id = room;
  id_json = Json(id).dump();
  if (spectators.empty()) return join_players();
  for (auto& c : spectators)
    c->send(R"({"type":"join","id":2,"as":"spectator","room":)" + id_json + "}");
}

// Spectators first, so that every one of them sees the game from its first version. A player's
// own "joined" starts nothing: a join repeated by a seated player is answered again, and would
// loop.
void RoomDriver::on_joined(Conn& c) {
  if (c.role == Role::spectator && ++spectators_joined == int(spectators.size())) join_players();
}

void RoomDriver::join_players() {
  for (std::size_t p = 1; p < players.size(); ++p)
    players[p]->send(R"({"type":"join","id":2,"as":"player","room":)" + id_json + R"(,"seat":)" +
                     std::to_string(p) + "}");
}

void RoomDriver::on_state(Conn& c, const Scanned& s, std::int64_t t) {
  std::uint64_t v = *s.version;
  if (v > max_version) {  // each step is seen first by exactly one of the room's connections
    max_version = v;
    bool now_playing = s.status == "playing";
    if (now_playing && !playing) {
      ++games_started;
      started = true;
    }
    if (s.status == "finished" && playing) ++games_finished;
    playing = now_playing;
  }
  // Ready once every connection has seen the game start: the states queued by the joins before it
  // have then reached everyone, and the measurement starts on a room in its steady state.
  if (!c.saw_start && s.status == "playing") {
    c.saw_start = true;
    if (++caught_up == size()) w.rooms_started.fetch_add(1, std::memory_order_relaxed);
  }
  auto& st = w.stats;
  if (c.role == Role::player) {
    if (c.act_pending && v > c.act_version) {  // only this seat could move the room on
      c.act_pending = false;
      w.outstanding.fetch_sub(1, std::memory_order_relaxed);
      ++st.accepted;
      if (w.shared.in_window(t)) ++st.accepted_in_window;
      if (w.shared.in_window(c.act_sent))
        st.latency_player_us.push_back(std::uint32_t((t - c.act_sent) / 1000));
    }
    bool stopping = w.shared.stopping.load(std::memory_order_relaxed);
    if (!s.legal.empty() && v != c.acted_version && !stopping) {
      c.acted_version = v;
      if (!w.shared.playing.load(std::memory_order_relaxed)) {
        c.held_legal = s.legal;
      } else if (w.options.think_ms == 0) {
        act(c, v, s.legal);
      } else {
        if (!c.think) c.think = std::make_unique<net::steady_timer>(w.ioc);
        c.think->expires_after(std::chrono::milliseconds(w.options.think_ms));
        c.think->async_wait([this, conn = c.shared_from_this(), v,
                             legal = std::string(s.legal)](beast::error_code ec) {
          if (!ec && conn->open() && max_version == v &&
              !w.shared.stopping.load(std::memory_order_relaxed))
            act(*conn, v, legal);
        });
      }
    }
    if (s.status == "finished" && c.rematch_version != v && !stopping) {
      c.rematch_version = v;
      c.send(R"({"type":"rematch","id":3,"room":)" + id_json + "}");
    }
  } else if (c.role == Role::spectator && &c == spectators.back().get() && v > 0) {
    std::size_t slot = (v - 1) % kSentSlots;
    if (sent_version[slot] == v - 1) {
      if (w.shared.in_window(sent_at[slot]))
        st.latency_spectator_us.push_back(std::uint32_t((t - sent_at[slot]) / 1000));
      sent_version[slot] = kNoVersion;
    }
  }
}

void RoomDriver::act(Conn& c, std::uint64_t v, std::string_view legal) {
  if (!split_array(legal, w.legal) || w.legal.empty()) {
    ++w.stats.unreadable;
    return;
  }
  std::string_view action = w.legal[w.rng() % w.legal.size()];
  c.act_id = w.next_id();
  std::string m;
  m.reserve(64 + id_json.size() + action.size());
  if (w.options.acts_without_id) {
    m += R"({"type":"act","room":)";
  } else {
    m += R"({"type":"act","id":)";
    m += std::to_string(c.act_id);
    m += R"(,"room":)";
  }
  m += id_json;
  m += R"(,"version":)";
  m += std::to_string(v);
  m += R"(,"action":)";
  m += action;
  m += '}';
  c.act_version = v;
  c.act_pending = true;
  c.act_sent = now_ns();
  sent_version[v % kSentSlots] = v;
  sent_at[v % kSentSlots] = c.act_sent;
  w.outstanding.fetch_add(1, std::memory_order_relaxed);
  c.send(std::move(m));
}

// The start of play: each seat to move acts on the state it holds.
void RoomDriver::play() {
  for (auto& c : players) {
    if (c->held_legal.empty()) continue;
    std::string legal = std::move(c->held_legal);
    c->held_legal.clear();
    if (c->open() && c->acted_version == max_version) act(*c, max_version, legal);
  }
}

// ---- figures ----------------------------------------------------------------------------------

Json percentiles(std::vector<std::uint32_t>& us) {
  if (us.empty()) return nullptr;
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    std::size_t i = std::min(us.size() - 1, std::size_t(q * double(us.size())));
    return double(us[i]) / 1000.0;
  };
  return {{"samples", us.size()},
          {"p50", at(0.50)},
          {"p95", at(0.95)},
          {"p99", at(0.99)},
          {"max", double(us.back()) / 1000.0}};
}

struct ProcSample {
  std::int64_t rss_kib = -1;
  std::int64_t cpu_ticks = -1;  // user + system
};

ProcSample sample_process(int pid) {
  ProcSample s;
  if (pid <= 0) return s;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmRSS:")) s.rss_kib = std::stoll(line.substr(6));
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), {});
  std::size_t paren = text.rfind(')');  // the command name may hold spaces
  if (paren == std::string::npos) return s;
  std::istringstream rest(text.substr(paren + 2));
  std::string field;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) s.cpu_ticks = std::stoll(field);
    if (i == 15) s.cpu_ticks += std::stoll(field);
  }
  return s;
}

std::vector<ProcSample> sample_processes(const std::vector<int>& pids) {
  std::vector<ProcSample> samples;
  for (int pid : pids) samples.push_back(sample_process(pid));
  return samples;
}

// Several servers' figures as one: unknown (-1) if any is.
ProcSample total(const std::vector<ProcSample>& samples) {
  ProcSample sum{0, 0};
  for (const auto& s : samples) {
    sum.rss_kib = sum.rss_kib < 0 || s.rss_kib < 0 ? -1 : sum.rss_kib + s.rss_kib;
    sum.cpu_ticks = sum.cpu_ticks < 0 || s.cpu_ticks < 0 ? -1 : sum.cpu_ticks + s.cpu_ticks;
  }
  return sum;
}

// One server's figures over the window, or several servers' summed.
Json server_figures(const ProcSample& before, const ProcSample& start, const ProcSample& end,
                    double window_s, int open_at_end) {
  Json server = {{"rss_before_kib", before.rss_kib},
                 {"rss_start_kib", start.rss_kib},
                 {"rss_end_kib", end.rss_kib}};
  double hz = double(sysconf(_SC_CLK_TCK));
  if (start.cpu_ticks >= 0 && end.cpu_ticks >= 0)
    server["cpu_percent"] = 100.0 * double(end.cpu_ticks - start.cpu_ticks) / hz / window_s;
  if (before.rss_kib >= 0 && end.rss_kib >= 0 && open_at_end > 0)
    server["rss_per_connection_kib"] = double(end.rss_kib - before.rss_kib) / double(open_at_end);
  return server;
}

double self_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

template <class F>
bool wait_until(F done, double seconds) {
  auto deadline = SteadyClock::now() + std::chrono::duration<double>(seconds);
  while (!done()) {
    if (SteadyClock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace

Json run(const Options& o) {
  Shared shared;
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < o.threads; ++i) workers.push_back(std::make_unique<Worker>(o, shared, i));
  // A room's connections share one worker whatever their servers, so its set-up (create, then
  // the spectators' joins, then the players') stays in order on that worker's thread.
  auto server = [&](int room, int member) -> const Endpoint& {
    return o.servers[server_of(room, member, o.servers.size())];
  };
  for (int r = 0; r < o.rooms; ++r) {
    Worker& w = *workers[std::size_t(r % o.threads)];
    auto room = std::make_unique<RoomDriver>(w);
    for (int p = 0; p < o.players_per_room; ++p)
      room->players.push_back(std::make_shared<Conn>(w, room.get(), Role::player, p, server(r, p)));
    for (int s = 0; s < o.spectators_per_room; ++s)
      room->spectators.push_back(std::make_shared<Conn>(w, room.get(), Role::spectator, s,
                                                        server(r, o.players_per_room + s)));
    w.rooms.push_back(std::move(room));
  }
  for (int i = 0; i < o.idle; ++i) {
    Worker& w = *workers[std::size_t(i % o.threads)];
    w.idle.push_back(std::make_shared<Conn>(w, nullptr, Role::idle, i, server(i, 0)));
  }
  for (int i = 0; i < o.seekers; ++i) {
    Worker& w = *workers[std::size_t(i % o.threads)];
    w.seekers.push_back(std::make_shared<Conn>(w, nullptr, Role::seeker, i, server(i, 0)));
  }

  auto sum = [&](std::atomic<int> Worker::*field) {
    int n = 0;
    for (auto& w : workers) n += ((*w).*field).load(std::memory_order_relaxed);
    return n;
  };
  std::vector<ProcSample> before = sample_processes(o.server_pids);
  auto t0 = SteadyClock::now();

  std::vector<std::thread> threads;
  for (auto& w : workers) {
    net::post(w->ioc, [&w = *w] { w.start(); });
    threads.emplace_back([&w = *w] {
      auto guard = net::make_work_guard(w.ioc);
      w.ioc.run();
    });
  }

  // Set-up: every connection open and every room playing, or the time is up.
  int connections = o.connections();
  bool ready = wait_until(
      [&] { return sum(&Worker::rooms_started) == o.rooms && sum(&Worker::open) == connections; },
      o.setup_timeout);
  double setup_s = std::chrono::duration<double>(SteadyClock::now() - t0).count();
  std::cerr << "tanbo-load: set-up " << (ready ? "done" : "timed out") << " in " << setup_s
            << " s: " << sum(&Worker::open) << " connections, " << sum(&Worker::rooms_started)
            << " rooms playing\n";
  int open_at_start = sum(&Worker::open);
  shared.playing = true;
  for (auto& w : workers) net::post(w->ioc, [&w = *w] { w.play(); });
  // The first acts of every room leave at once: measure from a second later, in the steady state.
  if (o.rooms > 0) std::this_thread::sleep_for(std::chrono::seconds(1));

  std::vector<ProcSample> start = sample_processes(o.server_pids);
  // Each worker sums its own sockets, on its own thread, between two of its handlers.
  auto wire_bytes = [&] {
    std::uint64_t n = 0;
    for (auto& w : workers) {
      std::promise<std::uint64_t> sum;
      net::post(w->ioc, [&w = *w, &sum] { sum.set_value(w.wire_bytes()); });
      n += sum.get_future().get();
    }
    return n;
  };
  double self_start = self_cpu_seconds();
  const std::uint64_t read_start = wire_bytes();
  std::int64_t ws = now_ns();
  shared.window_start = ws;
  std::this_thread::sleep_for(std::chrono::duration<double>(o.duration));
  std::int64_t we = now_ns();
  shared.window_end = we;
  std::vector<ProcSample> end = sample_processes(o.server_pids);
  double self_end = self_cpu_seconds();
  const std::uint64_t read_end = wire_bytes();
  int open_at_end = sum(&Worker::open);

  // Drain: no new act; wait for the outcome of those in flight, and for their states to reach
  // the spectators.
  shared.stopping = true;
  bool drained = wait_until([&] { return sum(&Worker::outstanding) == 0; }, 5.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  for (auto& w : workers) net::post(w->ioc, [&w = *w] { w.close_all(); });
  wait_until([&] { return sum(&Worker::finished) == connections; }, 5.0);
  for (auto& w : workers) w->ioc.stop();
  for (auto& t : threads) t.join();

  // Merge.
  Stats all;
  std::uint64_t versions = 0, started = 0, finished = 0;
  int rooms_started = 0;
  for (auto& w : workers) {
    auto& s = w->stats;
    all.accepted += s.accepted;
    all.accepted_in_window += s.accepted_in_window;
    all.refused += s.refused;
    all.messages += s.messages;
    all.bytes += s.bytes;
    all.messages_total += s.messages_total;
    all.bytes_total += s.bytes_total;
    all.connect_failed += s.connect_failed;
    all.closed_by_server += s.closed_by_server;
    all.unreadable += s.unreadable;
    all.setup_refused += s.setup_refused;
    for (auto& [k, n] : s.errors) all.errors[k] += n;
    for (auto& [k, n] : s.close_codes) all.close_codes[k] += n;
    all.latency_player_us.insert(all.latency_player_us.end(), s.latency_player_us.begin(),
                                 s.latency_player_us.end());
    all.latency_spectator_us.insert(all.latency_spectator_us.end(), s.latency_spectator_us.begin(),
                                    s.latency_spectator_us.end());
    all.pairings += s.pairings;
    all.pairings_in_window += s.pairings_in_window;
    all.seek_games_finished += s.seek_games_finished;
    all.seek_to_paired_us.insert(all.seek_to_paired_us.end(), s.seek_to_paired_us.begin(),
                                 s.seek_to_paired_us.end());
    for (auto& r : w->rooms) {
      versions += r->max_version;
      started += r->games_started;
      finished += r->games_finished;
      rooms_started += r->started ? 1 : 0;
    }
  }
  int outstanding = sum(&Worker::outstanding);
  // Ends the sockets before their io_contexts go.
  workers.clear();

  double window_s = double(we - ws) / 1e9;
  Json errors = Json::object();
  for (auto& [k, n] : all.errors) errors[k] = n;
  Json closes = Json::object();
  for (auto& [k, n] : all.close_codes) closes[k] = n;
  Json urls = Json::array();
  for (const auto& s : o.servers) urls.push_back(s.url);
  Json report = {
      {"ok", ready},
      {"urls", urls},
      {"game", o.game},
      {"threads", o.threads},
      {"think_ms", o.think_ms},
      {"setup_s", setup_s},
      {"window_s", window_s},
      {"connections",
       {{"planned", connections},
        {"open_at_start", open_at_start},
        {"open_at_end", open_at_end},
        {"idle", o.idle},
        {"connect_failed", all.connect_failed},
        {"closed_by_server", all.closed_by_server},
        {"close_codes", closes}}},
      {"rooms",
       {{"planned", o.rooms},
        {"started", rooms_started},
        {"players_per_room", o.players_per_room},
        {"spectators_per_room", o.spectators_per_room}}},
      {"actions",
       {{"accepted", all.accepted},
        {"accepted_in_window", all.accepted_in_window},
        {"accepted_per_s", double(all.accepted_in_window) / window_s},
        {"refused", all.refused},
        {"unresolved", outstanding},
        {"drained", drained}}},
      // Each game start and each accepted act is one version step: versions == starts + accepted.
      {"games", {{"started", started}, {"finished", finished}, {"versions", versions}}},
      {"errors", errors},
      {"unreadable", all.unreadable},
      {"setup_refused", all.setup_refused},
      {"latency_ms",
       {{"player", percentiles(all.latency_player_us)},
        {"last_spectator", percentiles(all.latency_spectator_us)}}},
      {"received",
       {{"messages", all.messages},
        {"bytes", all.bytes},
        {"messages_per_s", double(all.messages) / window_s},
        {"bytes_per_s", double(all.bytes) / window_s},
        {"messages_total", all.messages_total},
        {"bytes_total", all.bytes_total},
        {"wire_bytes_per_s", double(read_end - read_start) / window_s}}},
      {"load_generator_cpu_percent", 100.0 * (self_end - self_start) / window_s},
  };
  if (o.seekers > 0)
    report["seek"] = {{"seekers", o.seekers},
                      {"pairings", all.pairings},
                      {"pairings_in_window", all.pairings_in_window},
                      {"pairings_per_s", double(all.pairings_in_window) / window_s},
                      {"games_finished", all.seek_games_finished},
                      {"seek_to_paired_ms", percentiles(all.seek_to_paired_us)}};
  // One pid: the object of the earlier results (bench/results), unchanged. Several: their sums
  // (cpu_percent in shares of one core, so 3 busy nodes may show up to 300), each one's in per_pid.
  const auto& pids = o.server_pids;
  if (pids.size() == 1) {
    report["server"] = server_figures(before[0], start[0], end[0], window_s, open_at_end);
    report["server"]["pid"] = pids[0];
  } else if (pids.size() > 1) {
    Json server = server_figures(total(before), total(start), total(end), window_s, open_at_end);
    server["pids"] = pids;
    Json per_pid = Json::array();
    for (std::size_t i = 0; i < pids.size(); ++i) {
      // Without rss_per_connection_kib: how many connections a node held is not counted.
      Json one = server_figures(before[i], start[i], end[i], window_s, 0);
      one["pid"] = pids[i];
      per_pid.push_back(one);
    }
    server["per_pid"] = per_pid;
    report["server"] = server;
  }
  return report;
}

}  // namespace tanbo_server::load
