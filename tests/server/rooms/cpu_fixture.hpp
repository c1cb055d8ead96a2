#pragma once
// A real server whose room service has a shared in-memory journal (what the rooms wrote, for
// replaying), short CPU budgets and test-sized timers, and a human client that plays its seat
// with random legal actions while the CPU seats play themselves.
#include <chrono>
#include <memory>
#include <string>

#include "engine/core/match.hpp"
#include "engine/core/rng.hpp"
#include "server/rooms/journal.hpp"
#include "tests/server/rooms/fixture.hpp"

namespace tanbo_server::server::test {

inline ServiceOptions cpu_options() {
  ServiceOptions o = service_options(rooms_config());
  o.threads = 2;
  o.bots.threads = 2;
  o.bots.budget = std::chrono::milliseconds(20);  // mcts: short games; the budget test uses 300
  return o;
}

struct CpuServer {
  explicit CpuServer(ServiceOptions o = cpu_options())
      : journal(std::make_shared<MemoryJournal>()),
        service(std::make_shared<RoomService>(with_journal(std::move(o), journal))),
        server(rooms_config(), service) {
    if (std::getenv("TANBO_TEST_LOG")) spdlog::set_level(spdlog::level::debug);
  }
  ~CpuServer() {
    server.server.stop(std::chrono::seconds(2));
    service->shutdown();
  }
  std::uint16_t port() const { return server.port(); }

  // The room's game as its journal holds it: head and every accepted action, in order.
  engine::Record record(const std::string& room) const {
    engine::Record r;
    for (const auto& e : journal->entries()) {
      if (e.room != room) continue;
      std::string error;
      if (e.kind == JournalEntry::Kind::created || e.kind == JournalEntry::Kind::rematch)
        r = engine::Record::from_json(e.data.at("head"), error).value();
      if (e.kind == JournalEntry::Kind::action) r.actions.push_back({e.seat, e.data});
    }
    return r;
  }
  // The seats of the room's action entries, in order.
  std::vector<engine::Seat> actors(const std::string& room) const {
    std::vector<engine::Seat> out;
    for (const auto& e : journal->entries())
      if (e.room == room && e.kind == JournalEntry::Kind::action) out.push_back(e.seat);
    return out;
  }

  static ServiceOptions with_journal(ServiceOptions o, std::shared_ptr<MemoryJournal> j) {
    o.journal = std::move(j);
    return o;
  }

  std::shared_ptr<MemoryJournal> journal;
  std::shared_ptr<RoomService> service;
  InProcessServer server;
};

// hello, then create; returns the room id, with `created` and the first state read.
inline std::string create_room(ProtocolClient& c, json create, json* first_state = nullptr) {
  create["type"] = "create";
  create["id"] = "c";
  c.send(create);
  std::string room = c.expect("created").at("room");
  json s = c.expect("state");
  if (first_state) *first_state = s;
  return room;
}

struct HumanGame {
  json end;  // the last state read
  int human_acts = 0;
  int cpu_steps = 0;  // versions that came with no action of ours
};

// Plays seat `me` from `state` on: a random legal action whenever it decides (once per version),
// reading every state; versions must rise one by one. After `max_acts` of its own, resigns.
inline HumanGame play_human(ProtocolClient& c, const std::string& room, int me, json state,
                            std::uint64_t seed, int max_acts = 400) {
  engine::FastRng pick(seed);
  HumanGame g;
  std::uint64_t acted_on = 0;
  for (;;) {
    if (state.at("status") == "finished") break;
    const std::uint64_t v = state.at("version");
    const json& pending = state.at("pending");
    const bool mine = !pending.is_null() && pending.at("seat") == me;
    if (mine != state.contains("legal"))
      throw std::runtime_error("legal sent to the wrong seat: " + state.dump());
    if (mine && v != acted_on) {
      acted_on = v;
      if (g.human_acts++ >= max_acts) {
        c.send({{"type", "resign"}, {"room", room}});
      } else {
        const json& legal = state.at("legal");
        c.send({{"type", "act"},
                {"room", room},
                {"version", v},
                {"action", legal[pick.below(std::uint32_t(legal.size()))]}});
      }
    }
    json next = c.expect("state");
    const std::uint64_t nv = next.at("version");
    if (nv != v && nv != v + 1) throw std::runtime_error("version jumped: " + next.dump());
    if (nv == v + 1 && !mine) ++g.cpu_steps;
    state = std::move(next);
  }
  g.end = state;
  return g;
}

}  // namespace tanbo_server::server::test
