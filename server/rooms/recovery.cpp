#include "server/rooms/recovery.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <future>
#include <optional>
#include <variant>

#include "engine/core/match.hpp"
#include "protocol/limits.hpp"
#include "protocol/server.hpp"
#include "server/identity/store_identities.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/room.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

namespace {

// Runs `f` on the worker's thread and waits for its answer (the starting thread may wait).
template <class F>
auto on_worker(store::StoreWorker& worker, F f) -> decltype(f(std::declval<store::Store&>())) {
  using T = decltype(f(std::declval<store::Store&>()));
  auto promise = std::make_shared<std::promise<T>>();
  auto answer = promise->get_future();
  bool posted = worker.post([promise, f = std::move(f)](store::Store& s) mutable {
    try {
      auto value = std::make_shared<T>(f(s));
      // What a write answers counts only once its group committed.
      s.after_commit([promise, value](bool committed) {
        if (committed)
          promise->set_value(std::move(*value));
        else
          promise->set_exception(
              std::make_exception_ptr(store::StoreError("the store failed to commit")));
      });
    } catch (...) {
      promise->set_exception(std::current_exception());
    }
  });
  if (!posted) throw store::StoreError("the store is stopped");
  return answer.get();
}

struct Rebuilt {
  RoomSetup setup;
  RoomRestore state;
  std::optional<engine::Result> unrecorded_end;  // the replay finished a game the row did not
};

// The room a loaded row describes, or the reason it cannot be rebuilt.
std::variant<Rebuilt, std::string> rebuild(const store::LoadedRoom& loaded,
                                           const StoreIdentities& identities) {
  const auto& row = loaded.row;
  const auto* info = engine::find_game(row.game);
  if (!info) return "unknown game '" + row.game + "'";
  Rebuilt out;
  out.setup.id = row.id;
  out.setup.info = info;
  out.setup.options = row.options;
  out.setup.setup = row.setup;
  out.setup.players = row.players;
  out.setup.ranked = row.ranked;
  out.setup.timer = row.timer.is_object() ? row.timer : engine::Json::object();  // verbatim

  bool full = true;
  for (std::size_t s = 0; s < row.seats.size(); ++s) {
    const std::string& who = row.seats[s];
    std::optional<Identity> player;
    if (auto level = cpu_level_of(who))
      player = cpu_identity(*level);
    else if (!who.empty())
      player = identities.by_id(who).value_or(Identity{who, who});
    full = full && player.has_value();
    out.state.seats.push_back(std::move(player));
  }
  if (out.state.seats[0]) out.setup.owner = *out.state.seats[0];  // the creator takes seat 0

  engine::Record record = loaded.record();
  out.state.seed = record.seed;
  out.state.game_no = row.game_no;
  // A room's first game starts once every seat is taken (the same commit as the last seat); a
  // rematch starts at once.
  const bool started = full || row.game_no > 1;
  if (!started) {
    if (!loaded.actions.empty()) return std::string("actions logged before the game started");
    out.state.step_at_ms = loaded.started_at;
    return out;
  }
  engine::Replay replay = engine::replay(record);  // R2: the same path as tanbo-engine replay
  if (!replay.match) {
    std::string why = "the game does not start";
    if (!replay.problems.empty())
      why = replay.problems.front().field + ": " + replay.problems.front().message;
    return why;
  }
  if (replay.refusal)
    return "action " + std::to_string(replay.failed_at + 1) + " of game " +
           std::to_string(row.game_no) + " refused (" +
           std::string(engine::to_string(replay.refusal->code)) + "): " + replay.refusal->message;
  // Versions: one per accepted action, one per game start (a rematch follows the room's last).
  if (!loaded.actions.empty())
    out.state.version = std::uint64_t(loaded.actions.back().version);
  else
    out.state.version = row.game_no == 1 ? 1 : std::uint64_t(loaded.version) + 1;
  out.state.step_at_ms = loaded.started_at;
  if (!loaded.actions.empty() && loaded.actions.back().at > 0)
    out.state.step_at_ms = loaded.actions.back().at;
  // A game clock as the last action left it (none logged yet: every seat's base time).
  if (!loaded.actions.empty() && loaded.actions.back().clocks.is_array())
    for (const auto& ms : loaded.actions.back().clocks)
      if (ms.is_number_integer()) out.state.clocks.push_back(ms.get<std::int64_t>());
  // Whose last decision the computer made for its absent player (a game clock's time-out is
  // no decision), as the room counted it live.
  out.state.left.assign(std::size_t(row.players), false);
  for (const auto& a : loaded.actions)
    if (a.action != engine::Json(engine::kTimeout))
      out.state.left[std::size_t(a.seat)] = a.by == "takeover";
  if (replay.match->game().status() == engine::Status::finished) {
    if (loaded.finished_at == 0) out.unrecorded_end = replay.match->result();
    out.state.finished_at_ms = loaded.finished_at != 0 ? loaded.finished_at : wall_ms();
    out.state.ratings = loaded.ratings;
  }
  out.state.match = std::move(replay.match);
  return out;
}

// Rebuilds one loaded room, writes the end its replay reached but its row did not, and restores
// it; what became of it goes into `report`.
void recover_loaded(store::StoreWorker& worker, RoomService& rooms,
                    const StoreIdentities& identities, const store::LoadedRoom& l,
                    RecoveryReport& report) {
  auto rebuilt = rebuild(l, identities);
  if (auto* why = std::get_if<std::string>(&rebuilt)) {
    spdlog::warn("recovery: room {} set aside: {}", l.row.id, *why);
    report.set_aside.push_back(l.row.id + ": " + *why);
    return;
  }
  auto& r = std::get<Rebuilt>(rebuilt);
  r.state.epoch = l.epoch;
  if (r.unrecorded_end) {
    // The process stopped between the last action's commit and the result's: write it now,
    // so the record is complete (and the seed revealed, R1) as the replay says it ended.
    engine::Json result{{"places", r.unrecorded_end->places}, {"reason", r.unrecorded_end->reason}};
    engine::Json takeover = engine::Json::array();
    for (std::size_t s = 0; s < r.state.left.size(); ++s)
      if (r.state.left[s]) takeover.push_back(s);
    if (!takeover.empty()) result["takeover"] = std::move(takeover);
    auto w = on_worker(worker, [&](store::Store& s) {
      return s.finish_game(l.row.id, l.row.game_no, result, wall_ms(), &r.state.ratings);
    });
    if (!w.ok()) {
      spdlog::warn("recovery: room {} set aside: its result cannot be written: {}", l.row.id,
                   w.message);
      report.set_aside.push_back(l.row.id + ": " + w.message);
      return;
    }
    ++report.finished;
  }
  // The recent chat of each channel, as a join shows it.
  const std::string id = l.row.id;
  auto tails = on_worker(worker, [id](store::Store& s) {
    return std::array{s.chat_tail(id, "players", int(protocol::kChatHistory)),
                      s.chat_tail(id, "spectators", int(protocol::kChatHistory))};
  });
  for (std::size_t c = 0; c < tails.size(); ++c) {
    auto& [lines, next] = tails[c];
    r.state.chat[c].next = next;
    for (const auto& line : lines) {
      auto who = identities.by_id(line.identity);
      const bool account = who && !who->username.empty(), bot = who && who->bot;
      r.state.chat[c].lines.push_back(protocol::said({id,
                                                      protocol::Channel(c),
                                                      line.n,
                                                      {line.identity, line.name, account, bot},
                                                      line.text,
                                                      line.phrase,
                                                      line.at}));
    }
  }
  if (!rooms.restore(std::move(r.setup), std::move(r.state))) {
    spdlog::info("recovery: room {} not restored: the server is stopping", id);
    return;
  }
  ++report.restored;
}

// A room this node takes from another (fencing): its epoch rises before it is read, in the same
// transaction, so what is read is all the last owner will ever have written.
std::optional<store::LoadedRoom> take_and_load(store::Store& s, const std::string& id,
                                               const store::Log& log, std::int64_t since) {
  std::int64_t epoch = 0;
  if (s.shared() && s.take_room(id, epoch).code == store::WriteResult::Code::failed)
    throw store::StoreError("room " + id + ": cannot take it: " + s.last_failure());
  return s.load_room(id, log, since);
}

// Finished rooms still within their retention come back too (a rematch may yet be asked).
std::int64_t retained_since(const RoomService& rooms) {
  return wall_ms() - std::int64_t(rooms.retention().count());
}

// What the store says of a room it cannot read: a warning, and a line in the report.
store::Log set_aside_into(RecoveryReport& report) {
  return [&report](std::string line) {
    spdlog::warn("recovery: {}", line);
    report.set_aside.push_back(std::move(line));
  };
}

}  // namespace

RecoveryReport recover_rooms(store::StoreWorker& worker, RoomService& rooms,
                             const StoreIdentities& identities) {
  return recover_rooms(worker, rooms, identities, {});
}

RecoveryReport recover_rooms(store::StoreWorker& worker, RoomService& rooms,
                             const StoreIdentities& identities, const ClaimRoom& claim) {
  RecoveryReport report;
  auto loaded = on_worker(worker, [&report, since = retained_since(rooms)](store::Store& s) {
    return s.load_unfinished(set_aside_into(report), since);
  });
  for (auto& l : loaded) {
    if (!claim) {
      recover_loaded(worker, rooms, identities, l, report);
      continue;
    }
    if (!claim(l.row.id)) {
      ++report.left_to_others;
      continue;
    }
    // Claimed in a cluster: taken (fencing) and read again, as a takeover does.
    auto taken = on_worker(worker, [&report, &l, since = retained_since(rooms)](store::Store& s) {
      return take_and_load(s, l.row.id, set_aside_into(report), since);
    });
    if (taken) recover_loaded(worker, rooms, identities, *taken, report);
  }
  spdlog::info("recovery: {} rooms restored ({} finished on the way), {} set aside{}",
               report.restored, report.finished, report.set_aside.size(),
               claim ? fmt::format(", {} left to other nodes", report.left_to_others) : "");
  return report;
}

bool recover_room(store::StoreWorker& worker, RoomService& rooms, const StoreIdentities& identities,
                  const std::string& id) {
  if (rooms.lobby().find(id)) return true;  // restored already: a second copy would fork it
  RecoveryReport report;
  auto loaded = on_worker(worker, [&report, &id, since = retained_since(rooms)](store::Store& s) {
    return take_and_load(s, id, set_aside_into(report), since);
  });
  if (!loaded) return false;
  recover_loaded(worker, rooms, identities, *loaded, report);
  if (report.restored == 1) spdlog::info("recovery: room {} restored", id);
  return report.restored == 1;
}

}  // namespace tanbo_server::server
