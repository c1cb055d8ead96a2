// Target (2): the room dispatcher. Six connections (players, spectators, strangers) send client
// messages to the real Client, Lobby and Room code, whose strands run on this thread: after each
// message the io_context runs until idle, so every step is complete and the input reproducible
// (RAND_bytes is replaced by a generator seeded per input). The io_context and the services
// outlive the inputs; each input starts from an empty lobby, journal and identity list, opens
// only the connections it uses and is cut at kMaxSteps, so that one costs well under a
// millisecond. Messages are mostly well-formed: a legal action from the connection's last
// `state`, at its version; sometimes mutated, stale, from the wrong seat, chat, or raw bytes.
// After every step:
// - every frame sent is valid JSON that its server schema accepts (a state's schema is checked on
//   one step in four);
// - the journal (what is durable) moves one version per accepted action, game start or rematch,
//   and never for a refused message; an accepted `act` journals exactly the action sent;
// - every `state` sent carries the room's journaled version, never older than one the connection
//   saw; each new version (and a version sent again, on one step in eight) equals an engine
//   replay of the journaled actions (state, pending, events, legal).
#include <fuzzer/FuzzedDataProvider.h>
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <array>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "protocol/json_read.hpp"
#include "protocol/server.hpp"
#include "server/rooms/client.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/room.hpp"
#include "tests/fuzz/check.hpp"
#include "tests/fuzz/json_gen.hpp"
#include "tests/support/schema.hpp"

namespace {

using namespace tanbo_server;
using engine::Json;
using server::JournalEntry;

// ---- a reproducible RAND_bytes --------------------------------------------------------------

std::uint64_t rand_state = 0;

int fuzz_rand_bytes(unsigned char* out, int n) {
  for (int i = 0; i < n; ++i) {
    rand_state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = rand_state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    out[i] = static_cast<unsigned char>(z ^ (z >> 31));
  }
  return 1;
}
int fuzz_rand_status() { return 1; }
RAND_METHOD fuzz_rand = {nullptr, fuzz_rand_bytes, nullptr,
                         nullptr, fuzz_rand_bytes, fuzz_rand_status};

const protocol::SchemaSet& schemas() {
  static const protocol::SchemaSet set = [] {
    protocol::SchemaSet s;
    std::vector<std::string> problems;
    if (!s.load_dir(TANBO_PROTOCOL_SCHEMA_DIR, problems))
      fuzz::broken("the schemas load", problems.empty() ? "" : problems.front());
    return s;
  }();
  return set;
}

// Steps per input (a run of moves counts each move): a longer input is cut here.
constexpr int kMaxSteps = 32;

// ---- connections --------------------------------------------------------------------------

// Keeps the frames as the room shared them: one buffer per broadcast, parsed once per step.
struct Peer final : server::WsPeer {
  explicit Peer(std::uint64_t id) : id_(id) {}
  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override {
    if (!closed) frames.push_back(std::move(text));
  }
  void close(server::CloseCode) override { closed = true; }
  std::uint64_t id_;
  std::vector<std::shared_ptr<const std::string>> frames;
  bool closed = false;
};

using Frame = std::shared_ptr<const Json>;

struct Seen {
  Frame state;  // the last `state` of the room this connection got; null: none yet
  std::optional<engine::Seat> seat;
};

struct Connection {
  std::shared_ptr<Peer> peer;
  std::shared_ptr<server::Client> client;
  std::optional<std::string> token;
  engine::Names names = engine::Names::v1;  // the protocol version its hello asked for
  std::map<std::string, Seen> rooms;
  std::size_t read = 0;  // frames already looked at
};

// The in-memory journal, read in place (MemoryJournal copies its entries on every read).
struct Journal final : server::RoomJournal {
  void append(JournalEntry entry, std::function<void(server::Appended)> done) override {
    entries.push_back(std::move(entry));
    done(server::Appended::stored);
  }
  std::vector<JournalEntry> entries;
};

// ---- the model: what the journal says each room is --------------------------------------

struct RoomModel {
  std::uint64_t version = 0;
  bool started = false;
  std::string commit;
  std::unique_ptr<engine::Match> match;  // the engine replay of the journaled actions
};

// Any game of the catalogue.
std::string some_game(FuzzedDataProvider& in) {
  const auto games = engine::all_games();
  return games[in.ConsumeIntegralInRange<std::size_t>(0, games.size() - 1)]->id;
}

// Small option sets per game, so games end (and rematch) within one input.
Json options_for(const std::string& game, FuzzedDataProvider& in) {
  int k = in.ConsumeIntegralInRange(0, 3);
  if (k == 0) return Json::object();
  if (game == "steere-tanbo") return {{"size", k == 1 ? "7x7" : "5x7"}};
  if (game == "tsoro") return {{"columns", k == 1 ? 6 : 8}};
  if (game == "mancala-simple") return {{"stones", 3}};
  if (game == "tanbo") return {{"stall_rounds", k}};
  return Json::object();
}

// What outlives the inputs. Whatever keeps state between messages (the lobby's rooms, the
// identities, the journal) starts empty for each input, so that an input replays alone as it ran.
struct Harness {
  boost::asio::io_context ioc;
  std::shared_ptr<Journal> journal = std::make_shared<Journal>();
  std::shared_ptr<server::Services> services = std::make_shared<server::Services>();

  Harness() {
    services->rooms_executor = ioc.get_executor();
    services->lobby =
        std::make_shared<server::Lobby>(ioc.get_executor(), std::chrono::milliseconds(0));
    services->journal = journal;
    services->room.history = 4;  // resume past the kept steps is part of the game
    services->limits.rate_burst = 1e9;
    services->limits.rate_per_second = 1e9;
    services->limits.max_rooms = 3;
    services->limits.max_frame = 4096;
    services->server_name = "tanbo-server fuzz";
  }
  // An input allocates what it uses and frees it all by its end: libFuzzer then sees as many
  // frees as allocations and skips the costly leak scan of an input that leaks nothing.
  void begin() { services->identities = std::make_shared<server::MemoryIdentities>(); }
  void end() {
    journal->entries = {};
    services->identities.reset();
  }
};

Harness& harness() {
  static Harness h;
  return h;
}

// Adds the time from here to the end of the scope to a total, in microseconds.
struct Timed {
  explicit Timed(std::int64_t& total) : total_(total) {}
  ~Timed() {
    total_ += std::chrono::duration_cast<std::chrono::microseconds>(
                  std::chrono::steady_clock::now() - start_)
                  .count();
  }
  std::int64_t& total_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class World {
 public:
  explicit World(FuzzedDataProvider& in)
      : in_(in), ioc_(harness().ioc), journal_(harness().journal), services_(harness().services) {
    harness().begin();
  }

  ~World() {
    if (std::getenv("TANBO_FUZZ_VERBOSE")) {  // what an input reached, to tune the script
      std::size_t acts = 0;
      for (const auto& e : journal_->entries) acts += e.kind == JournalEntry::Kind::action;
      std::fprintf(stderr,
                   "%d steps, %zu frame bytes, rooms %zu, journal %zu entries, %zu actions; "
                   "versions:",
                   steps_, parsed_bytes_, rooms_.size(), journal_->entries.size(), acts);
      for (const auto& [id, m] : models_)
        std::fprintf(stderr, " %llu", (unsigned long long)m.version);
      std::fprintf(stderr, "; us: server %lld check %lld (parse %lld schema %lld replay %lld)",
                   (long long)time_.server, (long long)time_.check, (long long)time_.parse,
                   (long long)time_.schema, (long long)time_.replay);
      std::fprintf(stderr, "\n");
    }
    // Nothing of this input may reach the next: its rooms' timers are cancelled, not left to
    // fire on the shared io_context.
    for (auto& c : conns_)
      if (c.client) c.client->on_close();
    for (const auto& room : services_->lobby->rooms()) room->stop();
    run();
    services_->lobby->clear();  // rooms and the lobby hold each other
    run();
    harness().end();
  }

  void play();

 private:
  void open(Connection& c) {
    c.peer = std::make_shared<Peer>(++next_peer_);
    c.client = std::make_shared<server::Client>(c.peer->id(), services_);
    c.rooms.clear();
    c.read = 0;
  }
  void close(Connection& c) {
    c.client->on_close();
    c.client.reset();
    run();
    observe(c, nullptr);
  }
  void run() {
    for (int i = 0; i < 1000; ++i) {
      ioc_.restart();
      if (ioc_.poll() == 0) return;
    }
    fuzz::broken("the rooms go idle");
  }

  // Sends one message from c and checks everything that follows from it.
  void send(Connection& c, const Json& msg) { send_text(c, protocol::serialize(msg), &msg); }
  void send_text(Connection& c, const std::string& text, const Json* msg);
  void observe(Connection& c, const Json* msg);
  void check_journal(const Json* msg, const Connection& sender, bool refused);
  void check_state(const Json& s, engine::Names names);

  Json act_message(Connection& c, const std::string& room, bool well_formed);
  std::string pick_room();

  void hello(Connection& c);

  FuzzedDataProvider& in_;
  boost::asio::io_context& ioc_;
  std::shared_ptr<Journal> journal_;
  std::shared_ptr<server::Services> services_;
  std::array<Connection, 6> conns_;
  std::uint64_t next_peer_ = 0;
  std::int64_t next_id_ = 0;
  std::size_t journaled_ = 0;
  std::vector<std::string> rooms_;
  std::map<std::string, RoomModel> models_;
  std::map<std::string, std::uint64_t> checked_;  // per room: the last version compared
  int steps_ = 0;
  // Where an input's time goes, in microseconds (verbose runs print it): the server's work, the
  // checks after it, and within the checks the frames parsed, schema-checked and compared with
  // the replay.
  struct {
    std::int64_t server = 0, check = 0, parse = 0, schema = 0, replay = 0;
  } time_;
  std::size_t parsed_bytes_ = 0;  // frame bytes parsed (verbose runs print it)
};

std::string World::pick_room() {
  if (rooms_.empty() || in_.ConsumeIntegralInRange(0, 31) == 0) return "r-nowhere";
  return rooms_[in_.ConsumeIntegralInRange<std::size_t>(0, rooms_.size() - 1)];
}

Json World::act_message(Connection& c, const std::string& room, bool well_formed) {
  Json msg = {{"type", "act"}, {"room", room}, {"version", 0}, {"action", 0}};
  auto it = c.rooms.find(room);
  if (it == c.rooms.end() || !it->second.state) return msg;
  const Json& s = *it->second.state;
  msg["version"] = s["version"];
  if (auto legal = s.find("legal"); legal != s.end() && !legal->empty())
    msg["action"] = (*legal)[in_.ConsumeIntegralInRange<std::size_t>(0, legal->size() - 1)];
  if (!well_formed) {
    switch (in_.ConsumeIntegralInRange(0, 3)) {
      case 0:
        msg["version"] = s["version"].get<std::uint64_t>() + in_.ConsumeIntegralInRange(-2, 2);
        break;
      case 1:
        fuzz::mutate(msg["action"], in_);
        break;
      case 2:
        fuzz::mutate(msg, in_);
        break;
      default:
        msg["action"] = fuzz::random_json(in_);
        break;
    }
  }
  return msg;
}

// Opens c if it is closed and says hello, sometimes as the identity it had (its token).
void World::hello(Connection& c) {
  if (!c.client) open(c);
  Json msg = {{"type", "hello"}, {"id", ++next_id_}};
  if (c.token && in_.ConsumeBool()) msg["token"] = *c.token;
  // Either version of the protocol: each frame is then held to the engine in its names.
  c.names = in_.ConsumeBool() ? engine::Names::v2 : engine::Names::v1;
  if (c.names == engine::Names::v2) msg["protocol"] = 2;
  send(c, msg);
}

void World::send_text(Connection& c, const std::string& text, const Json* msg) {
  {
    Timed t(time_.server);
    c.client->on_text(c.peer, text);
    run();
  }
  {
    Timed t(time_.check);
    observe(c, msg);
  }
  if (c.peer->closed) close(c);  // the server closed it: the session ends
}

bool is_type(const Json* msg, std::string_view type) {
  if (!msg || !msg->is_object()) return false;
  auto t = msg->find("type");
  return t != msg->end() && *t == type;
}
bool is_act(const Json* msg) { return is_type(msg, "act"); }

// The id an answer to msg carries as `re`: null when it had none (or none readable).
Json id_of(const Json* msg) {
  if (!msg || !msg->is_object()) return nullptr;
  auto id = msg->find("id");
  return id == msg->end() ? Json(nullptr) : *id;
}

void World::observe(Connection& sender, const Json* msg) {
  ++steps_;
  // Every frame to every connection: valid JSON its schema accepts; states noted per room. A
  // broadcast is one buffer shared by its recipients: parsed and validated once.
  bool refused = false;
  std::map<std::string, std::uint64_t> versions;  // per room: the version of this step's states
  // Per room and version of the protocol's names: this step's state, legal aside.
  std::map<std::pair<std::string, engine::Names>, const Json*> shown;
  std::unordered_map<const std::string*, Frame> parsed;
  for (auto& c : conns_) {
    if (!c.peer) continue;  // never opened
    auto& frames = c.peer->frames;
    for (std::size_t i = c.read; i < frames.size(); ++i) {
      const std::string& text = *frames[i];
      auto [slot, first_time] = parsed.try_emplace(&text);
      if (first_time) {
        parsed_bytes_ += text.size();
        std::shared_ptr<Json> j;
        {
          // Read as the server reads a client's frame (a fifth cheaper here than nlohmann
          // alone); the protocol target holds its plain reader to nlohmann's reading.
          Timed t(time_.parse);
          j = std::make_shared<Json>(protocol::json_read::read(text));
        }
        TANBO_FUZZ_CHECK(!j->is_discarded() && j->is_object() && j->contains("type"), text);
        const auto& type = (*j)["type"];
        TANBO_FUZZ_CHECK(type.is_string(), text);
        // A state's schema check costs more than the room's whole step: states are checked on
        // one step in four (the first included), every other frame always.
        if (type != "state" || steps_ % 4 == 1) {
          Timed t(time_.schema);
          // The games' schemas say version 2's names; a version 1 frame is held to the
          // envelope alone, as the frame of a game without a schema is. A buffer is shared by
          // connections of one version only.
          Json as_v1;
          if (c.names == engine::Names::v1 && j->contains("game")) {
            as_v1 = *j;
            as_v1["game"] = "version-1";
          }
          auto problems = schemas().validate("server-" + type.get<std::string>() + ".json",
                                             as_v1.is_null() ? *j : as_v1);
          if (!problems.empty())
            fuzz::broken("a frame its schema refuses", problems.front() + "\n" + text);
        }
        slot->second = std::move(j);
      }
      const Frame& frame = slot->second;
      const Json& f = *frame;
      const std::string& type = f["type"].get_ref<const std::string&>();
      if (&c == &sender && type == "error" && (f["re"] == id_of(msg) || f["re"].is_null()))
        refused = true;
      if (&c == &sender && msg && f.value("re", Json()) == id_of(msg)) {
        if (type == "welcome") c.token = f["token"].get<std::string>();
        if (type == "created") {  // the creator holds the seat `created` names, with no `joined`
          rooms_.push_back(f["room"].get<std::string>());
          c.rooms[f["room"].get<std::string>()].seat = f["seat"].get<int>();
        }
      }
      if (type == "joined")
        c.rooms[f["room"].get<std::string>()].seat =
            f["seat"].is_null() ? std::nullopt : std::optional(f["seat"].get<int>());
      if (type == "left") c.rooms.erase(f["room"].get<std::string>());
      if (type != "state") continue;
      const std::string& room = f["room"].get_ref<const std::string&>();
      std::uint64_t v = f["version"].get<std::uint64_t>();
      auto& seen = c.rooms[room];
      if (seen.state)
        TANBO_FUZZ_CHECK(v >= (*seen.state)["version"].get<std::uint64_t>(),
                         "a connection saw its room's version go back\n" + text);
      auto [at, fresh] = versions.emplace(room, v);
      TANBO_FUZZ_CHECK(fresh || at->second == v, "one step, two versions\n" + text);
      // Every member is shown the same room (spectator count and connections may move within
      // the step; the game may not).
      auto [was, first] = shown.emplace(std::pair(room, c.names), &f["state"]);
      TANBO_FUZZ_CHECK(first || *was->second == f["state"], "one step, two states\n" + text);
      // The legal list goes to the deciding seat, and only there.
      bool decides = seen.seat && f["pending"].is_object() && f["pending"]["seat"] == *seen.seat;
      TANBO_FUZZ_CHECK(f.contains("legal") == decides,
                       "the connection holds " +
                           (seen.seat ? "seat " + std::to_string(*seen.seat) : "no seat") +
                           "; it got\n" + text);
      seen.state = frame;
    }
    c.read = frames.size();
  }
  check_journal(msg, sender, refused);
  for (const auto& [room, v] : versions) {
    const auto& m = models_[room];
    TANBO_FUZZ_CHECK(v == m.version, "a state at version " + std::to_string(v) +
                                         ", the journal at " + std::to_string(m.version));
    // Against the replay: each new version, and a version shown again on one step in eight
    // (a join, a resume), so that a state sent twice cannot drift unseen for long.
    auto [last, fresh] = checked_.try_emplace(room, v);
    if (!fresh && last->second == v && steps_ % 8 != 0) continue;
    last->second = v;
    // The deciding seat's frame when there is one: it also carries the legal list.
    const Json* best = nullptr;
    engine::Names names{};
    for (auto& c : conns_)
      if (auto it = c.rooms.find(room);
          it != c.rooms.end() && it->second.state && (*it->second.state)["version"] == v)
        if (!best || it->second.state->contains("legal")) {
          best = it->second.state.get();
          names = c.names;
        }
    Timed t(time_.replay);
    if (best) check_state(*best, names);
  }
}

void World::check_journal(const Json* msg, const Connection& sender, bool refused) {
  const auto& entries = journal_->entries;
  std::span<const JournalEntry> fresh(entries.begin() + std::ptrdiff_t(journaled_), entries.end());
  journaled_ = entries.size();
  if (refused)
    TANBO_FUZZ_CHECK(fresh.empty(),
                     "a refused message changed the journal\n" + (msg ? msg->dump() : ""));
  std::size_t actions = 0, lines = 0;
  for (const auto& e : fresh) {
    lines += e.kind == JournalEntry::Kind::chat;
    auto& m = models_[e.room];
    // What a broken check prints: TANBO_FUZZ_CHECK calls it only then.
    auto what = [&] {
      return e.data.dump() + " at " + std::to_string(e.version) + " after " +
             std::to_string(m.version);
    };
    switch (e.kind) {
      case JournalEntry::Kind::created: {
        TANBO_FUZZ_CHECK(e.version == 0 && !m.match && m.version == 0, what());
        std::string error;
        auto head = engine::Record::from_json(e.data["head"], error);
        TANBO_FUZZ_CHECK(head.has_value(), error);
        m.commit = engine::seed_commitment(head->seed);
        // The replay starts when the seats are full; the head is kept as the match's record.
        engine::Problems problems;
        m.match = engine::Match::start(*head, problems);
        TANBO_FUZZ_CHECK(m.match != nullptr, what());
        break;
      }
      case JournalEntry::Kind::seat:
        // Version moves once: the seat that fills the room starts the game.
        if (e.version == m.version + 1) {
          TANBO_FUZZ_CHECK(!m.started, what());
          m.started = true;
          m.version = e.version;
        }
        TANBO_FUZZ_CHECK(e.version == m.version, what());
        break;
      case JournalEntry::Kind::action: {
        TANBO_FUZZ_CHECK(m.started && e.version == m.version + 1, what());
        ++actions;
        m.version = e.version;
        auto no = e.data == Json(engine::kResign) ? m.match->resign(e.seat)
                                                  : m.match->act(e.seat, e.data);
        if (no)
          fuzz::broken(
              "the journal holds an action the engine refuses",
              std::string(engine::to_string(no->code)) + ": " + no->message + "\n" + what());
        break;
      }
      case JournalEntry::Kind::rematch: {
        TANBO_FUZZ_CHECK(m.started && e.version == m.version + 1, what());
        TANBO_FUZZ_CHECK(m.match->game().status() == engine::Status::finished, what());
        m.version = e.version;
        std::string error;
        auto head = engine::Record::from_json(e.data["head"], error);
        TANBO_FUZZ_CHECK(head.has_value(), error);
        m.commit = engine::seed_commitment(head->seed);
        engine::Problems problems;
        m.match = engine::Match::start(*head, problems);
        TANBO_FUZZ_CHECK(m.match != nullptr, what());
        break;
      }
      case JournalEntry::Kind::finished:
        TANBO_FUZZ_CHECK(
            e.version == m.version && m.match->game().status() == engine::Status::finished, what());
        break;
      default:
        break;
    }
  }
  // An accepted act is exactly the action sent, journaled for the sender's seat.
  if (is_act(msg) && !refused) {
    TANBO_FUZZ_CHECK(actions == 1, msg->dump());
    const auto& e = fresh.front();
    TANBO_FUZZ_CHECK(e.data == (*msg)["action"], msg->dump());
    auto it = sender.rooms.find(e.room);
    TANBO_FUZZ_CHECK(it != sender.rooms.end() && it->second.seat == e.seat, msg->dump());
  }
  if (is_act(msg) && refused) TANBO_FUZZ_CHECK(actions == 0, msg->dump());
  // A line said is stored before anyone reads it: one accepted `say`, one chat entry.
  if (is_type(msg, "say")) TANBO_FUZZ_CHECK(lines == (refused ? 0u : 1u), msg->dump());
}

// A state equals the engine's replay of the journal at the same version.
void World::check_state(const Json& s, engine::Names names) {
  const auto& m = models_[s["room"].get<std::string>()];
  TANBO_FUZZ_CHECK(s["commit"] == m.commit, s.dump());
  if (!m.started) {
    TANBO_FUZZ_CHECK(s["status"] == "waiting" && s["state"].is_null(), s.dump());
    return;
  }
  const auto& g = m.match->game();
  auto where = [&] { return s.dump() + "\nreplay: " + m.match->record().to_json().dump(); };
  TANBO_FUZZ_CHECK(s["state"] == Json::parse(engine::state_text(g, names)), where());
  TANBO_FUZZ_CHECK(s["events"] == Json::parse(m.match->events().text(names)), where());
  bool finished = g.status() == engine::Status::finished;
  TANBO_FUZZ_CHECK(s["status"] == (finished ? "finished" : "playing"), where());
  if (finished) {
    TANBO_FUZZ_CHECK(s["pending"].is_null(), where());
    TANBO_FUZZ_CHECK(s["result"]["places"] == g.result().places, where());
    TANBO_FUZZ_CHECK(s["seed"] == engine::seed_hex(m.match->record().seed), where());
  } else {
    TANBO_FUZZ_CHECK(s["pending"]["seat"] == g.pending().seat, where());
    TANBO_FUZZ_CHECK(!s.contains("seed"), where());
  }
  if (s.contains("legal")) TANBO_FUZZ_CHECK(s["legal"] == m.match->legal_json(), where());
}

void World::play() {
  // The usual opening (most inputs): hellos, a room, its players seated, a spectator.
  std::string game = some_game(in_);
  const auto* info = engine::find_game(game);
  int players = in_.ConsumeIntegralInRange(info->min_players, info->max_players);
  if (in_.ConsumeIntegralInRange(0, 7) != 0) {
    for (int p = 0; p < players; ++p) hello(conns_[std::size_t(p)]);
    hello(conns_[5]);
    send(conns_[0], {{"type", "create"},
                     {"id", ++next_id_},
                     {"game", game},
                     {"seats", players},
                     {"options", options_for(game, in_)}});
    if (!rooms_.empty()) {
      send(conns_[5],
           {{"type", "join"}, {"id", ++next_id_}, {"room", rooms_[0]}, {"as", "spectator"}});
      for (int p = 1; p < players; ++p)
        send(conns_[std::size_t(p)],
             {{"type", "join"}, {"id", ++next_id_}, {"room", rooms_[0]}, {"as", "player"}});
    }
  }
  engine::FastRng pick(in_.ConsumeIntegral<std::uint64_t>());
  while (steps_ < kMaxSteps && in_.remaining_bytes() > 0) {
    auto& c = conns_[in_.ConsumeIntegralInRange<std::size_t>(0, conns_.size() - 1)];
    if (!c.client) {
      hello(c);
      continue;
    }
    std::string room = pick_room();
    Json msg;
    int op = in_.ConsumeIntegralInRange(0, 63);
    if (op < 24) {
      msg = act_message(c, room, true);
    } else if (op < 30) {  // a run of legal moves by whoever decides: reach the end, then rematch
      int n = in_.ConsumeIntegralInRange(1, 16);
      for (int k = 0; k < n && steps_ < kMaxSteps; ++k) {
        Connection* decider = nullptr;
        for (auto& d : conns_)
          if (d.client)
            if (auto it = d.rooms.find(room);
                it != d.rooms.end() && it->second.state && it->second.state->contains("legal"))
              decider = &d;
        if (!decider) break;
        const Json& shown = *decider->rooms[room].state;
        const Json& legal = shown["legal"];
        Json a = {{"type", "act"},
                  {"id", ++next_id_},
                  {"room", room},
                  {"version", shown["version"]},
                  {"action", legal[pick.below(std::uint32_t(legal.size()))]}};
        send(*decider, a);
      }
      continue;
    } else if (op < 36) {
      msg = act_message(c, room, false);
    } else if (op < 40) {
      msg = {{"type", "join"}, {"room", room}, {"as", in_.ConsumeBool() ? "player" : "spectator"}};
      if (in_.ConsumeBool()) msg["seat"] = in_.ConsumeIntegralInRange(0, 4);
    } else if (op < 42) {
      msg = {{"type", "resign"}, {"room", room}};
    } else if (op < 45) {
      msg = {{"type", "rematch"}, {"room", room}};
    } else if (op < 47) {
      msg = {{"type", "leave"}, {"room", room}};
    } else if (op < 49) {
      auto it = c.rooms.find(room);
      std::uint64_t v = it != c.rooms.end() && it->second.state
                            ? (*it->second.state)["version"].get<std::uint64_t>()
                            : 0;
      msg = {{"type", "resume"},
             {"room", room},
             {"version", v - std::min<std::uint64_t>(v, in_.ConsumeIntegralInRange(0, 6))}};
    } else if (op < 50) {
      std::string g = some_game(in_);
      msg = {{"type", "create"}, {"game", g}, {"options", options_for(g, in_)}};
      if (in_.ConsumeBool()) msg["seats"] = in_.ConsumeIntegralInRange(1, 5);
    } else if (op < 52) {
      static constexpr std::array<const char*, 6> kSimple = {
          "ping", "games", "rooms", "watch_lobby", "unwatch_lobby", "hello"};
      msg = {{"type", kSimple[in_.ConsumeIntegralInRange<std::size_t>(0, kSimple.size() - 1)]}};
    } else if (op < 54) {
      close(c);
      continue;
    } else if (op < 58) {  // any message, then one change inside it
      msg = act_message(c, room, true);
      fuzz::mutate(msg, in_);
    } else if (op < 61) {  // chat: a line or a phrase, to either channel
      static constexpr std::array<const char*, 3> kPhrases = {"good_game", "hello", "nope"};
      msg = {{"type", "say"},
             {"room", room},
             {"channel", in_.ConsumeBool() ? "players" : "spectators"}};
      if (in_.ConsumeBool())
        msg["phrase"] = kPhrases[in_.ConsumeIntegralInRange<std::size_t>(0, kPhrases.size() - 1)];
      else
        msg["text"] = in_.ConsumeRandomLengthString(24);
    } else {  // raw text
      send_text(c, in_.ConsumeRandomLengthString(256), nullptr);
      continue;
    }
    if (msg.is_object() && in_.ConsumeIntegralInRange(0, 15) != 0) msg["id"] = ++next_id_;
    send(c, msg);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);
  RAND_set_rand_method(&fuzz_rand);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider in(data, size);
  rand_state = in.ConsumeIntegral<std::uint64_t>();
  const auto start = std::chrono::steady_clock::now();
  {
    World world(in);
    world.play();
  }
  if (std::getenv("TANBO_FUZZ_VERBOSE"))
    std::fprintf(stderr, "%lld us\n",
                 (long long)std::chrono::duration_cast<std::chrono::microseconds>(
                     std::chrono::steady_clock::now() - start)
                     .count());
  return 0;
}
