#include "server/rooms/store_journal.hpp"

#include <chrono>

#include "engine/core/match.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

namespace {

using store::WriteResult;
using Code = WriteResult::Code;

std::string_view kind_name(JournalEntry::Kind k) {
  switch (k) {
    case JournalEntry::Kind::created:
      return "created";
    case JournalEntry::Kind::seat:
      return "seat";
    case JournalEntry::Kind::action:
      return "action";
    case JournalEntry::Kind::rematch:
      return "rematch";
    case JournalEntry::Kind::finished:
      return "finished";
    case JournalEntry::Kind::timer:
      return "timer";
    case JournalEntry::Kind::abandoned:
      return "abandoned";
    case JournalEntry::Kind::chat:
      return "chat";
  }
  return "?";
}

// A game head as the store keeps it: the record, its first seat and whether that was drawn.
struct Head {
  engine::Record record;
  engine::Seat first = 0;
  bool drawn = false;
};

// R5: the first seat follows from the head alone (a drawn one is the seed's first draw), so the
// store learns it here even though the room starts its Match only once every seat is taken.
std::optional<Head> read_head(const engine::Json& data, std::string& error) {
  if (!data.is_object() || !data.contains("head")) return error = "no head", std::nullopt;
  auto record = engine::Record::from_json(data["head"], error);
  if (!record) return std::nullopt;
  engine::Problems problems;
  auto match = engine::Match::start(*record, problems);
  if (!match) {
    error = problems.empty() ? "the game does not start" : problems.front().message;
    return std::nullopt;
  }
  const auto& first = record->options.contains("first") ? record->options["first"] : engine::Json();
  return Head{std::move(*record), match->first(), first.is_string()};
}

WriteResult bad(std::string message) { return {Code::invalid, std::move(message)}; }

}  // namespace

StoreJournal::StoreJournal(std::shared_ptr<store::StoreWorker> worker)
    : worker_(std::move(worker)) {}

WriteResult StoreJournal::write(store::Store& s, const JournalEntry& e, std::int64_t now) {
  std::string error;
  // Fencing: in a shared database the check and the write share the group's transaction, which
  // holds the room's row until its commit; without a group they could not, so it waits for one.
  if (s.shared() && e.kind != JournalEntry::Kind::created) {
    if (!s.in_group()) return {Code::failed, "room " + e.room + ": no transaction to fence in"};
    if (auto r = s.check_epoch(e.room, e.epoch); !r.ok()) return r;
  }
  switch (e.kind) {
    case JournalEntry::Kind::created: {
      auto head = read_head(e.data, error);
      if (!head) return bad("created: " + error);
      store::RoomRow row;
      row.id = e.room;
      row.game = head->record.game;
      row.options = head->record.options;
      row.setup = head->record.setup;
      row.players = head->record.players;
      row.seed = engine::seed_hex(head->record.seed);
      row.commit = engine::seed_commitment(head->record.seed);  // R1
      row.ranked = e.data.value("ranked", false);
      if (auto t = e.data.find("timer"); t != e.data.end() && t->is_object()) row.timer = *t;
      row.created_at = now;
      row.first = head->first;
      row.seats.assign(std::size_t(row.players), std::string());
      return s.create_room(row);
    }
    case JournalEntry::Kind::seat: {
      std::string player;
      if (e.data.is_object() && e.data.contains("player") && e.data["player"].is_string())
        player = e.data["player"].get<std::string>();
      return s.set_seat(e.room, e.seat, player);
    }
    case JournalEntry::Kind::action:
      return s.append_action(e.room, e.game, std::int64_t(e.version), e.seat, e.data, e.clocks,
                             e.at, e.by);
    case JournalEntry::Kind::rematch: {
      auto head = read_head(e.data, error);
      if (!head) return bad("rematch: " + error);
      return s.start_rematch(e.room, e.game, engine::seed_hex(head->record.seed),
                             engine::seed_commitment(head->record.seed), head->first, head->drawn,
                             now);
    }
    case JournalEntry::Kind::finished:
      return s.finish_game(e.room, e.game, e.data, now, e.ratings.get());
    case JournalEntry::Kind::timer:
      return s.set_timer(e.room, e.data);
    case JournalEntry::Kind::abandoned:
      return s.abandon_room(e.room, now);
    case JournalEntry::Kind::chat: {
      store::ChatLine line;
      try {
        line = {e.data.at("channel").get<std::string>(),  e.data.at("n").get<std::int64_t>(),
                e.data.at("identity").get<std::string>(), e.data.at("name").get<std::string>(),
                e.data.value("text", std::string()),      e.data.value("phrase", std::string()),
                e.data.at("at").get<std::int64_t>()};
      } catch (const engine::Json::exception& x) {
        return bad(std::string("chat: ") + x.what());
      }
      return s.append_chat(e.room, e.game, line);
    }
  }
  return bad("unknown journal entry");
}

void StoreJournal::append(JournalEntry entry, std::function<void(Appended)> done) {
  // The callback is shared so that a refused post can still answer it.
  auto answer = std::make_shared<std::function<void(Appended)>>(std::move(done));
  bool posted = worker_->post([e = std::move(entry), answer](store::Store& s) {
    WriteResult r = write(s, e, wall_ms());
    // Durable before visible: inside a group the room hears "stored" only after the group's
    // COMMIT; a COMMIT that fails wrote nothing of the group, which the room may try again.
    if (r.ok())
      return s.after_commit([answer](bool committed) {
        (*answer)(committed ? Appended::stored : Appended::unavailable);
      });
    // The database failed: the room says so once and tries again; the store is unhealthy.
    if (r.code == Code::failed) return (*answer)(Appended::unavailable);
    if (r.code == Code::fenced) return (*answer)(Appended::fenced);
    (*answer)(Appended::refused);
    // Thrown after the answer: the worker logs it and reports itself unhealthy.
    throw store::StoreError("room " + e.room + ": " + std::string(kind_name(e.kind)) +
                            " not written (" + std::string(store::to_string(r.code)) +
                            "): " + r.message);
  });
  // The store is stopping: nothing can be made durable now.
  if (!posted) (*answer)(Appended::unavailable);
}

}  // namespace tanbo_server::server
