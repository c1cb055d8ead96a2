// A room's steps: an action, a resignation or a rematch checked against the game, journaled,
// then the one frame (and the deciding seat's frame with its legal list) every member gets.
#include "server/rooms/room.hpp"

#include <spdlog/spdlog.h>

#include "server/metrics/metrics.hpp"
#include "server/rooms/lobby.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::RoomStatus;

void Room::do_act(const Peer& peer, const protocol::Act& a, const Id& re,
                  const std::function<void()>& accepted) {
  const Member* m = seated(peer, re);
  if (!m) return;
  if (auto no = play(m->seat, a.version, a.action, {peer, re}))
    return refuse(peer, no->first, no->second, re);
  if (accepted) accepted();  // a move is never charged to the rate limit
}

std::optional<std::pair<ErrorCode, std::string>> Room::play(engine::Seat seat,
                                                            std::uint64_t version,
                                                            const engine::Json& action, Asker asker,
                                                            std::string_view by) {
  if (!match_) return {{ErrorCode::not_your_turn, "the game has not started"}};
  if (match_->game().status() == engine::Status::finished)
    return {{ErrorCode::game_over, "the game is over"}};
  if (version != version_)
    return {{ErrorCode::stale_version, "the room is at version " + std::to_string(version_) +
                                           ", not " + std::to_string(version)}};
  // An answer that comes once the seat's time is out is too late: the time-out is the step.
  if (seat == match_->game().pending().seat && time_out_if_due(wall_ms()))
    return {{match_->game().status() == engine::Status::finished ? ErrorCode::game_over
                                                                 : ErrorCode::not_your_turn,
             "your time ran out"}};
  if (auto no = match_->act(seat, action, by))
    return {{protocol::error_code(no->code), no->message}};
  ++version_;
  metrics::action_accepted();
  left_[std::size_t(seat)] = by == "takeover";
  JournalEntry entry{JournalEntry::Kind::action, id(), version_, seat, action};
  entry.by = std::string(by);
  step({std::move(entry)}, std::move(asker));
  return std::nullopt;
}

void Room::do_resign(const Peer& peer, const Id& re) {
  const Member* m = seated(peer, re);
  if (!m) return;
  if (!match_) return refuse(peer, ErrorCode::not_your_turn, "the game has not started", re);
  engine::Seat seat = m->seat;
  // R3: a seated player may resign at any moment of a game not finished.
  if (auto no = match_->resign(seat))
    return refuse(peer, protocol::error_code(no->code), no->message, re);
  left_[std::size_t(seat)] = false;  // the player's own last decision
  ++version_;
  metrics::action_accepted();
  step({{JournalEntry::Kind::action, id(), version_, seat, engine::Json(engine::kResign)}},
       {peer, re});
}

void Room::do_rematch(const Peer& peer, const Id& re) {
  const Member* m = seated(peer, re);
  if (!m) return;
  if (!match_ || match_->game().status() != engine::Status::finished)
    return refuse(peer, ErrorCode::not_finished, "the game has not finished", re);
  // Asking twice changes nothing, so it tells nobody anything new.
  if (std::exchange(roster_.seats[std::size_t(m->seat)].rematch, true)) return answer({peer, re});
  if (!roster_.all_rematch()) {
    after_change();
    return answer({peer, re});
  }
  engine::Json options = setup_.options;
  // R6: with alternate_first each rematch moves the first seat one on, in turn order.
  if (settings_.alternate_first) options["first"] = (match_->first() + 1) % setup_.players;
  seed_ = fresh_seed();
  commit_ = engine::seed_commitment(seed_);
  for (auto& s : roster_.seats) s.rematch = false;
  if (!start_game(options)) {
    after_change();
    return refuse(peer, ErrorCode::internal, "the new game did not start", re);
  }
  ++game_no_;
  step({{JournalEntry::Kind::rematch,
         id(),
         version_,
         engine::kNoSeat,
         {{"head", match_->record().to_json()}}}},
       {peer, re});
}

bool Room::start_game(engine::Json options) {
  engine::Record head;
  head.game = setup_.info->id;
  head.options = std::move(options);
  head.setup = setup_.setup;
  head.players = setup_.players;
  head.seed = seed_;
  engine::Problems problems;
  auto match = engine::Match::start(head, problems);
  if (!match) {  // validated at creation, so never expected
    spdlog::error("room {}: the game did not start: {}", id(),
                  problems.empty() ? "?" : problems.front().message);
    enter(Life::broken);
    return false;
  }
  match_ = std::move(match);
  ++version_;
  left_.assign(roster_.seats.size(), false);
  takeover_.clear();
  ratings_ = nullptr;
  clock_.start(wall_ms(), roster_.seats.size(), to_decide());
  spdlog::info("room {} started: {} version {} first seat {}", id(), setup_.info->id, version_,
               match_->first());
  return true;
}

// Only a request with an id is told `ok`: without one there is nothing to match it to, and
// the state it caused says the rest.
void Room::answer(const Asker& asker) const {
  if (asker.peer) send_ok(asker.peer, asker.re, version_);
}

void Room::send_ok(const Peer& peer, const Id& re, std::optional<std::uint64_t> version) const {
  if (protocol::has_id(re))
    peer->send(std::make_shared<const std::string>(protocol::ok_text(re, id(), version)));
}

void Room::step(std::vector<JournalEntry> entries, Asker asker) {
  const std::int64_t now = wall_ms();
  clock_.stepped(now);
  if (!entries.empty() && entries.front().kind == JournalEntry::Kind::action) {
    JournalEntry& e = entries.front();
    const bool decision =
        e.data != engine::Json(engine::kResign) && e.data != engine::Json(engine::kTimeout);
    clock_.turned(now, decision ? e.seat : engine::kNoSeat, to_decide());
    e.at = now;  // recovery's deadlines count from the same moment as this node's
    if (clock_.game_clock()) e.clocks = clock_.remaining();
  }
  bool finished = match_->game().status() == engine::Status::finished;
  std::shared_ptr<engine::Json> ratings;
  if (finished) {
    const auto res = match_->result();
    engine::Json result{{"places", res.places}, {"reason", res.reason}};
    // A seat whose last decision the computer made for its absent player did not finish the
    // game itself: the result says so, and the ratings count it as the last (docs/rules.md).
    takeover_.clear();
    for (std::size_t s = 0; s < left_.size(); ++s)
      if (left_[s]) takeover_.push_back(engine::Seat(s));
    if (!takeover_.empty()) result["takeover"] = takeover_;
    ratings = std::make_shared<engine::Json>();
    entries.push_back(
        {JournalEntry::Kind::finished, id(), version_, engine::kNoSeat, std::move(result)});
    entries.back().ratings = ratings;
  }
  journal(
      std::move(entries),
      [this, self = shared_from_this(), finished, asker, ratings] {
        metrics::ScopeTimer broadcast(metrics::observe_broadcast);
        if (finished) {
          spdlog::info("room {} finished at version {}: {}", id(), version_,
                       match_->result().reason);
          ratings_ = *ratings;  // written by the journal before it said done
        }
        after_change();
        answer(asker);
      },
      asker);
}

void Room::after_change(std::uint64_t answered, protocol::Frame answer) {
  watch_seats();
  publish();  // the lobby knows the change before any member sees it
  refresh();
  if (match_) frames_.keep(version_);
  for (const auto& m : roster_.members) frames_.send(m, m.peer_id == answered ? answer : nullptr);
  check_retention();
  next_decision();
}

// The state of the room as it is, for frames_ to build once for every member.
void Room::refresh(bool v1) {
  engine::Pending pending;
  std::optional<engine::Result> result;
  std::string seed;
  std::vector<engine::Seat> rematch;
  const auto st = status();
  if (st == RoomStatus::playing) pending = match_->game().pending();
  if (st == RoomStatus::finished) {
    result = match_->result();
    seed = engine::seed_hex(match_->record().seed);  // R1: revealed once the game is over
    rematch = roster_.rematch_asked();
  }
  protocol::StateView v;
  v.room = id();
  v.version = version_;
  v.game = setup_.info->id;
  v.status = st;
  v.spectators = roster_.spectators();
  v.pending = st == RoomStatus::playing ? &pending : nullptr;
  v.result = result ? &*result : nullptr;
  if (result) v.takeover = takeover_, v.ratings = &ratings_;
  v.commit = commit_;
  v.seed = seed;
  v.rematch = rematch;
  protocol::Clock clock;
  std::vector<std::int64_t> shown;
  if (clock_.view(clock, shown, wall_ms(), st, v.pending ? pending.seat : engine::kNoSeat))
    v.clock = &clock;
  frames_.build(v, roster_.views(takeover_level()), match_.get(), v1 || roster_.any_v1());
}

// A state for one member (a join, a resume) shows the count as it is now: the frames are built
// again, same version and game state, when spectators came or went since they were last built,
// or when the member speaks a version no member spoke then.
void Room::send_current_state(const Member& m, protocol::Frame answer) {
  if (frames_.built() &&
      (frames_.spectators() != roster_.spectators() || !frames_.built_for(m.protocol)))
    refresh(m.protocol == 1);
  frames_.send(m, std::move(answer));
}

void Room::refuse(const Peer& peer, ErrorCode code, std::string message, const Id& re) const {
  spdlog::debug("room {}: refused {}: {}", id(), protocol::to_string(code), message);
  metrics::rejected(code);
  peer->send(protocol::share(protocol::error(code, std::move(message), re)));
}

void Room::publish() {
  // Most steps change nothing the lobby lists but whose turn it is: they send those two fields,
  // not the whole summary built and copied again.
  const bool playing = status() == RoomStatus::playing;
  Listed now{status(),
             roster_.views(takeover_level()),
             roster_.spectators(),
             game_no_,
             match_ != nullptr,
             spectator_chat()};
  Turn turn{playing ? std::optional(match_->game().pending().seat) : std::nullopt,
            playing && clock_.timed() ? std::optional(clock_.deadline()) : std::nullopt};
  if (listed_ && *listed_ == now) {
    if (turn_listed_ == turn) return;
    turn_listed_ = turn;
    if (lobby_->turned(id(), turn.to_move, turn.deadline_ms)) return;
  }
  protocol::RoomSummary s;
  s.room = id();
  s.game = setup_.info->id;
  s.options = match_ ? match_->record().options : setup_.options;
  s.status = now.status;
  s.seats = now.seats;
  s.spectators = now.spectators;
  listed_ = std::move(now);
  turn_listed_ = turn;
  s.ranked = setup_.ranked;
  s.timer = clock_.control();
  s.to_move = turn.to_move;
  s.deadline_ms = turn.deadline_ms;
  s.spectator_chat = spectator_chat();
  lobby_->publish(std::move(s), owner());
}

RoomStatus Room::status() const {
  if (!match_) return RoomStatus::waiting;
  return match_->game().status() == engine::Status::finished ? RoomStatus::finished
                                                             : RoomStatus::playing;
}

}  // namespace tanbo_server::server
