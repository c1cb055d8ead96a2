#include "server/rooms/room.hpp"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <stdexcept>

#include "server/metrics/metrics.hpp"
#include "server/rooms/lobby.hpp"
#include "server/wall_clock.hpp"

namespace tanbo::server {

namespace net = boost::asio;
using protocol::ErrorCode;
using protocol::RoomStatus;

namespace {

// R1: every game's seed comes from the OS's secure source.
engine::Seed fresh_seed() {
  engine::Seed s{};
  if (RAND_bytes(s.data(), static_cast<int>(s.size())) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return s;
}

ErrorCode code_of(std::string_view refusal) {
  return protocol::error_code_from(refusal).value_or(ErrorCode::internal);
}

constexpr std::string_view kCpuPrefix = "cpu:";

}  // namespace

Identity cpu_identity(protocol::CpuLevel level) {
  auto name = protocol::to_string(level);
  return {std::string(kCpuPrefix).append(name), std::string("CPU (").append(name).append(")")};
}

std::optional<protocol::CpuLevel> cpu_level_of(const std::string& identity_id) {
  if (!identity_id.starts_with(kCpuPrefix)) return std::nullopt;
  for (auto l : {protocol::CpuLevel::random, protocol::CpuLevel::greedy, protocol::CpuLevel::mcts})
    if (identity_id.substr(kCpuPrefix.size()) == protocol::to_string(l)) return l;
  return std::nullopt;
}

Room::Room(net::any_io_executor ex, RoomSetup setup, RoomSettings settings,
           std::shared_ptr<Lobby> lobby, std::shared_ptr<RoomJournal> journal)
    : strand_(net::make_strand(ex)),
      setup_(std::move(setup)),
      settings_(settings),
      lobby_(std::move(lobby)),
      journal_(std::move(journal)),
      seed_(fresh_seed()),
      commit_(engine::seed_commitment(seed_)),
      seats_(std::size_t(setup_.players)),
      control_(time_control_of(setup_.timer)),
      clock_(strand_),
      away_(std::size_t(setup_.players)),
      retire_(strand_) {}

// ---- the strand and the journal -----------------------------------------------------------

void Room::enqueue(std::function<void()> fn) {
  net::post(strand_, [self = shared_from_this(), fn = std::move(fn)]() mutable {
    if (self->busy_) return self->backlog_.push_back(std::move(fn));
    fn();
  });
}

void Room::drain() {
  while (!busy_ && !backlog_.empty()) {
    auto fn = std::move(backlog_.front());
    backlog_.pop_front();
    fn();
  }
}

void Room::journal(std::vector<JournalEntry> entries, std::function<void()> then, Asker asker) {
  if (entries.empty()) return then();
  busy_ = true;
  auto first = std::move(entries.front());
  entries.erase(entries.begin());
  first.game = game_no_;
  journal_->append(std::move(first), [self = shared_from_this(), rest = std::move(entries),
                                      then = std::move(then), asker = std::move(asker),
                                      appended = metrics::Clock::now()](bool ok) mutable {
    metrics::observe_commit(appended);
    net::post(self->strand_, [self, ok, rest = std::move(rest), then = std::move(then),
                              asker = std::move(asker)]() mutable {
      self->busy_ = false;
      if (!ok) {
        spdlog::error("room {}: journal append failed; the room stops here", self->id());
        self->broken_ = true;
        if (asker.peer)
          self->refuse(asker.peer, ErrorCode::internal, "the room failed to store it", asker.re);
      } else {
        self->journal(std::move(rest), std::move(then), std::move(asker));
      }
      self->drain();
    });
  });
}

// ---- entry points -------------------------------------------------------------------------

JournalEntry Room::created_entry(const std::string& owner) const {
  engine::Record r;
  r.game = setup_.info->id;
  r.options = setup_.options;
  r.setup = setup_.setup;
  r.players = setup_.players;
  r.seed = seed_;
  return {JournalEntry::Kind::created,
          id(),
          0,
          engine::kNoSeat,
          {{"head", r.to_json()},
           {"owner", owner},
           {"ranked", setup_.ranked},
           {"timer", setup_.timer}}};
}

JournalEntry Room::take_seat(engine::Seat seat, const Identity& who) {
  seats_[std::size_t(seat)].player = who;
  return {JournalEntry::Kind::seat, id(), version_, seat, {{"player", who.id}, {"name", who.name}}};
}

void Room::open(Peer peer, Identity who, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), who = std::move(who), re] {
    self->opened_ = true;
    std::vector<JournalEntry> entries;
    entries.push_back(self->created_entry(who.id));
    for (const auto& c : self->setup_.cpu)  // checked by the client: free seats, never seat 0
      entries.push_back(self->take_seat(c.seat, cpu_identity(c.level)));
    self->journal(std::move(entries), [self, peer, who, re] {
      spdlog::info("room {} created by {}: {} for {}", self->id(), who.id, self->setup_.info->id,
                   self->setup_.players);
      // `created` answers the request; the creator is seated without a `joined` of its own.
      peer->send(protocol::share(protocol::created(re, self->id(), 0)));
      self->do_join(peer, who, protocol::Join{self->id(), protocol::Role::player, 0}, re, false);
    });
  });
}

void Room::open_seated(std::vector<Identity> seats) {
  enqueue([self = shared_from_this(), seats = std::move(seats)] {
    self->opened_ = true;
    std::vector<JournalEntry> entries;
    entries.push_back(self->created_entry(""));
    for (std::size_t s = 0; s < seats.size() && s < self->seats_.size(); ++s)
      entries.push_back(self->take_seat(engine::Seat(s), seats[s]));
    if (!self->start_game(self->setup_.options)) return;  // broken_: joins are refused
    entries.back().version = self->version_;
    self->journal(std::move(entries), [self] {
      spdlog::info("room {} made by pairing: {} for {}", self->id(), self->setup_.info->id,
                   self->setup_.players);
      self->after_change();
    });
  });
}

void Room::join(Peer peer, Identity who, protocol::Join j, Id re, std::vector<std::string> mutes) {
  enqueue([self = shared_from_this(), peer = std::move(peer), who = std::move(who),
           j = std::move(j), re,
           mutes = std::move(mutes)] { self->do_join(peer, who, j, re, true, mutes); });
}
void Room::act(Peer peer, protocol::Act a, Id re, std::function<void()> accepted) {
  enqueue([self = shared_from_this(), peer = std::move(peer), a = std::move(a), re,
           accepted = std::move(accepted)] { self->do_act(peer, a, re, accepted); });
}
void Room::resign(Peer peer, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), re] { self->do_resign(peer, re); });
}
void Room::rematch(Peer peer, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), re] { self->do_rematch(peer, re); });
}
void Room::leave(Peer peer, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), re] { self->do_leave(peer, re); });
}
void Room::resume(Peer peer, protocol::Resume r, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), r = std::move(r), re] {
    self->do_resume(peer, r, re);
  });
}
void Room::disconnect(std::uint64_t peer_id) {
  enqueue([self = shared_from_this(), peer_id] { self->do_disconnect(peer_id); });
}
void Room::fill_cpu(Peer peer, protocol::CpuLevel level, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), level, re] {
    self->do_fill_cpu(peer, level, re);
  });
}
void Room::settled(std::function<void()> done) {
  // Behind a journal append in flight, enqueue waits in the backlog: it runs after the append's
  // broadcast.
  enqueue(std::move(done));
}

void Room::stop() {
  // Straight to the strand, past a journal append in flight: it touches timers only.
  net::post(strand_, [self = shared_from_this()] { self->halt(); });
}

void Room::halt() {
  stopped_ = true;
  clock_.cancel();
  retire_.cancel();
  for (auto& a : away_)
    if (a.timer) a.timer->cancel();
}

void Room::lose(std::string why) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    if (self->retired_) return;
    spdlog::error("room {} lost: {}", self->id(), why);
    self->broken_ = self->retired_ = true;
    self->halt();
    auto frame = protocol::share(protocol::error(ErrorCode::internal, why, Id{}));
    for (const auto& m : self->members_)
      if (auto p = m.peer.lock()) {
        p->send(frame);
        p->close(CloseCode::going_away);
      }
    self->members_.clear();
    self->lobby_->remove(self->id());
  });
}

// ---- requests -----------------------------------------------------------------------------

void Room::do_join(const Peer& peer, const Identity& who, const protocol::Join& j, const Id& re,
                   bool answer, std::vector<std::string> mutes) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  engine::Seat seat = engine::kNoSeat;
  bool taken_now = false;
  if (j.as == protocol::Role::player) {
    for (std::size_t s = 0; s < seats_.size(); ++s)
      if (seats_[s].player && seats_[s].player->id == who.id) seat = engine::Seat(s);
    if (seat == engine::kNoSeat) {  // a new seat: the one asked for, or the first free one
      if (j.seat) {
        if (*j.seat < 0 || *j.seat >= setup_.players)
          return refuse(peer, ErrorCode::bad_message,
                        "seat " + std::to_string(*j.seat) + " does not exist", re);
        if (seats_[std::size_t(*j.seat)].player)
          return refuse(peer, ErrorCode::seat_taken,
                        "seat " + std::to_string(*j.seat) + " is taken", re);
        seat = *j.seat;
      } else {
        for (std::size_t s = 0; s < seats_.size() && seat == engine::kNoSeat; ++s)
          if (!seats_[s].player) seat = engine::Seat(s);
        if (seat == engine::kNoSeat)
          return refuse(peer, ErrorCode::room_full, "every seat is taken", re);
      }
      taken_now = true;
    }
  }
  auto finish = [this, peer, who, seat, j, re, answer, mutes = std::move(mutes)] {
    bool seats_moved = seat != engine::kNoSeat;
    Member* m = member(peer->id());
    if (m) {
      seats_moved = seats_moved || m->seat != engine::kNoSeat;
      m->seat = seat;
      m->mutes = mutes;
    } else {
      members_.push_back(Member{peer, peer->id(), who.id, seat, mutes, {}});
      m = &members_.back();
    }
    if (answer) {
      const auto chat = chat_for(*m);
      peer->send(protocol::share(protocol::joined(
          re, id(), j.as, seat == engine::kNoSeat ? std::nullopt : std::optional(seat), &chat)));
    }
    if (seats_moved) return after_change();
    // A spectator arriving changes no seat: the joiner alone gets the state; the others see the
    // new count in the room's next state, so a crowd joining costs one state per arrival.
    spectators_changed();
    send_current_state(*member(peer->id()));
  };
  if (!taken_now) return finish();

  std::vector<JournalEntry> entries;
  entries.push_back(take_seat(seat, who));
  bool full = true;
  for (const auto& s : seats_) full = full && s.player.has_value();
  if (full && !match_) {
    if (!start_game(setup_.options))  // broken_ is set; the journal never saw the seat
      return refuse(peer, ErrorCode::internal, "the game did not start", re);
    entries.back().version = version_;
  }
  journal(std::move(entries), finish, {peer, re});
}

void Room::do_act(const Peer& peer, const protocol::Act& a, const Id& re,
                  const std::function<void()>& accepted) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  const Member* m = member(peer->id());
  if (!m || m->seat == engine::kNoSeat)
    return refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
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
  if (auto no = match_->act(seat, action, by)) return {{code_of(no->code), no->message}};
  ++version_;
  metrics::action_accepted();
  step({{JournalEntry::Kind::action, id(), version_, seat, action}}, std::move(asker));
  return std::nullopt;
}

void Room::do_resign(const Peer& peer, const Id& re) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  const Member* m = member(peer->id());
  if (!m || m->seat == engine::kNoSeat)
    return refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
  if (!match_) return refuse(peer, ErrorCode::not_your_turn, "the game has not started", re);
  engine::Seat seat = m->seat;
  // R3: a seated player may resign at any moment of a game not finished.
  if (auto no = match_->resign(seat)) return refuse(peer, code_of(no->code), no->message, re);
  ++version_;
  metrics::action_accepted();
  step({{JournalEntry::Kind::action, id(), version_, seat, engine::Json(engine::kResign)}},
       {peer, re});
}

void Room::do_rematch(const Peer& peer, const Id& re) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  const Member* m = member(peer->id());
  if (!m || m->seat == engine::kNoSeat)
    return refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
  if (!match_ || match_->game().status() != engine::Status::finished)
    return refuse(peer, ErrorCode::not_finished, "the game has not finished", re);
  // Asking twice changes nothing, so it tells nobody anything new.
  if (std::exchange(seats_[std::size_t(m->seat)].rematch, true)) return answer({peer, re});
  bool all = true;  // CPU seats always play again
  for (const auto& s : seats_) all = all && (s.rematch || (s.player && cpu_level_of(s.player->id)));
  if (!all) {
    after_change();
    return answer({peer, re});
  }
  engine::Json options = setup_.options;
  // R6: with alternate_first each rematch moves the first seat one on, in turn order.
  if (settings_.alternate_first) options["first"] = (match_->first() + 1) % setup_.players;
  seed_ = fresh_seed();
  commit_ = engine::seed_commitment(seed_);
  for (auto& s : seats_) s.rematch = false;
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

void Room::do_leave(const Peer& peer, const Id& re) {
  const bool seated = remove_member(peer->id());
  peer->send(protocol::share(protocol::left(re, id())));
  // R3: leaving is not resigning; the seat stays the player's.
  seated ? after_change() : spectators_changed();
}

void Room::do_resume(const Peer& peer, const protocol::Resume& r, const Id& re) {
  const Member* m = member(peer->id());
  Member once{peer, peer->id(), {}, engine::kNoSeat, {}, {}};
  if (!m) m = &once;
  bool covered =
      r.version <= version_ &&
      (r.version == version_ || (!history_.empty() && history_.front().version <= r.version + 1));
  std::vector<protocol::Step> steps;
  if (covered)
    for (const auto& s : history_)
      if (s.version > r.version) steps.push_back({s.version, protocol::Json::parse(s.events)});
  const auto chat = chat_for(*m, r.chat_players, r.chat_spectators);
  peer->send(protocol::share(protocol::resumed(re, id(), version_, steps, !covered, &chat)));
  send_current_state(*m);
}

void Room::do_disconnect(std::uint64_t peer_id) {
  auto before = members_.size();
  const bool seated = remove_member(peer_id);
  if (seated) return after_change();
  if (members_.size() != before) spectators_changed();
}

bool Room::remove_member(std::uint64_t peer_id) {
  bool seated = false;
  std::erase_if(members_, [&](const Member& m) {
    if (m.peer_id != peer_id) return false;
    seated = seated || m.seat != engine::kNoSeat;
    return true;
  });
  return seated;
}

// Only the spectator count moved: the lobby lists it and retention may start, but no member gets
// a frame for it (the room's next state carries it).
void Room::spectators_changed() {
  publish();
  check_retention();
}

// ---- changes ------------------------------------------------------------------------------

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
    broken_ = true;
    return false;
  }
  match_ = std::move(match);
  ++version_;
  step_at_ms_ = wall_ms();
  start_clocks();
  spdlog::info("room {} started: {} version {} first seat {}", id(), setup_.info->id, version_,
               match_->first());
  return true;
}

// Only a request with an id is told `ok`: without one there is nothing to match it to, and
// the state it caused says the rest.
void Room::answer(const Asker& asker) const {
  if (asker.peer && protocol::has_id(asker.re))
    asker.peer->send(protocol::share(protocol::ok(asker.re, id(), version_)));
}

void Room::step(std::vector<JournalEntry> entries, Asker asker) {
  step_at_ms_ = wall_ms();
  if (!entries.empty() && entries.front().kind == JournalEntry::Kind::action) {
    JournalEntry& e = entries.front();
    const bool decision =
        e.data != engine::Json(engine::kResign) && e.data != engine::Json(engine::kTimeout);
    tick_clocks(step_at_ms_, decision ? e.seat : engine::kNoSeat);
    e.at = step_at_ms_;  // recovery's deadlines count from the same moment as this node's
    if (control_.kind == protocol::TimeControl::Kind::clock) e.clocks = remaining_;
  }
  bool finished = match_->game().status() == engine::Status::finished;
  if (finished) {
    const auto res = match_->result();
    entries.push_back({JournalEntry::Kind::finished,
                       id(),
                       version_,
                       engine::kNoSeat,
                       {{"places", res.places}, {"reason", res.reason}}});
  }
  journal(
      std::move(entries),
      [this, self = shared_from_this(), finished, asker] {
        metrics::ScopeTimer broadcast(metrics::observe_broadcast);
        if (finished)
          spdlog::info("room {} finished at version {}: {}", id(), version_,
                       match_->result().reason);
        after_change();
        answer(asker);
      },
      asker);
}

void Room::after_change() {
  // Each step is kept once, whatever else moved the room at the same version.
  if (match_ && (history_.empty() || history_.back().version != version_) && version_ > 0)
    history_.push_back({version_, match_->events().dump()});
  while (history_.size() > settings_.history) history_.pop_front();
  watch_seats();
  publish();  // the lobby knows the change before any member sees it
  refresh();
  for (const auto& m : members_) send_state(m);
  check_retention();
  next_decision();
}

void Room::refresh() {
  auto seats = seat_views();
  engine::Json state;
  engine::Pending pending;
  std::optional<engine::Result> result;
  std::string seed;
  std::vector<engine::Seat> rematch;
  auto st = status();
  if (match_) {
    state = match_->game().state_json();
    if (st == RoomStatus::playing) pending = match_->game().pending();
    if (st == RoomStatus::finished) {
      result = match_->result();
      seed = engine::seed_hex(match_->record().seed);  // R1: revealed once the game is over
      for (std::size_t s = 0; s < seats_.size(); ++s)
        if (seats_[s].rematch) rematch.push_back(engine::Seat(s));
    }
  }
  protocol::StateView v;
  v.room = id();
  v.version = version_;
  v.game = setup_.info->id;
  v.status = st;
  v.seats = seats;
  v.spectators = frame_spectators_ = spectators();
  v.state = nullptr;  // moved in below: the game's tree is built once per frame, never copied
  v.pending = match_ && st == RoomStatus::playing ? &pending : nullptr;
  v.events = match_ ? &match_->events() : nullptr;
  v.result = result ? &*result : nullptr;
  v.commit = commit_;
  v.seed = seed;
  v.rematch = rematch;
  protocol::Clock clock;
  std::vector<std::int64_t> shown;
  if (clock_view(clock, shown, wall_ms())) v.clock = &clock;
  engine::Json message = protocol::state(v);
  if (match_) message["state"] = std::move(state);
  frame_ = protocol::share(message);
  deciding_ = v.pending ? pending.seat : engine::kNoSeat;
  legal_frame_.reset();
  if (deciding_ != engine::kNoSeat)
    legal_frame_ = std::make_shared<const std::string>(
        protocol::with_legal(*frame_, protocol::serialize(match_->legal_json())));
}

void Room::send_state(const Member& m) const {
  auto peer = m.peer.lock();
  if (!frame_ || !peer) return;
  peer->send(m.seat != engine::kNoSeat && m.seat == deciding_ ? legal_frame_ : frame_);
}

// A state for one member (a join, a resume) shows the count as it is now: the frames are built
// again, same version and game state, when spectators came or went since they were last built.
void Room::send_current_state(const Member& m) {
  if (frame_ && frame_spectators_ != spectators()) refresh();
  send_state(m);
}

void Room::refuse(const Peer& peer, ErrorCode code, std::string message, const Id& re) const {
  spdlog::debug("room {}: refused {}: {}", id(), protocol::to_string(code), message);
  metrics::rejected(code);
  peer->send(protocol::share(protocol::error(code, std::move(message), re)));
}

void Room::publish() {
  // Most steps change nothing the lobby lists: skip the summary's copy and the lobby's lock.
  const bool playing = status() == RoomStatus::playing;
  Listed now{status(),
             seat_views(),
             spectators(),
             game_no_,
             match_ != nullptr,
             spectator_chat(),
             playing ? std::optional(match_->game().pending().seat) : std::nullopt,
             playing && control_.timed() ? std::optional(deadline_ms()) : std::nullopt};
  if (listed_ && *listed_ == now) return;
  protocol::RoomSummary s;
  s.room = id();
  s.game = setup_.info->id;
  s.options = match_ ? match_->record().options : setup_.options;
  s.status = now.status;
  s.seats = now.seats;
  s.spectators = now.spectators;
  listed_ = std::move(now);
  s.ranked = setup_.ranked;
  s.timer = control_;
  s.to_move = listed_->to_move;
  s.deadline_ms = listed_->deadline_ms;
  s.spectator_chat = spectator_chat();
  lobby_->publish(std::move(s), owner());
}

Room::Member* Room::member(std::uint64_t peer_id) {
  for (auto& m : members_)
    if (m.peer_id == peer_id) return &m;
  return nullptr;
}

RoomStatus Room::status() const {
  if (!match_) return RoomStatus::waiting;
  return match_->game().status() == engine::Status::finished ? RoomStatus::finished
                                                             : RoomStatus::playing;
}

std::vector<protocol::SeatView> Room::seat_views() const {
  std::vector<protocol::SeatView> out(seats_.size());
  for (std::size_t s = 0; s < seats_.size(); ++s) {
    out[s].seat = engine::Seat(s);
    if (!seats_[s].player) continue;
    if (auto level = cpu_level_of(seats_[s].player->id)) {  // a CPU seat shows no player
      out[s].cpu = true;
      out[s].level = level;
      continue;
    }
    out[s].player = protocol::Player{seats_[s].player->id, seats_[s].player->name};
    if (seats_[s].takeover) out[s].cpu = true, out[s].level = takeover_level();
  }
  for (const auto& m : members_)
    if (m.seat != engine::kNoSeat) out[std::size_t(m.seat)].connected = true;
  return out;
}

int Room::spectators() const {
  int n = 0;
  for (const auto& m : members_) n += m.seat == engine::kNoSeat;
  return n;
}

// ---- recovery and retention ---------------------------------------------------------------

std::shared_ptr<Room> Room::restore(net::any_io_executor ex, RoomSetup setup, RoomSettings settings,
                                    std::shared_ptr<Lobby> lobby,
                                    std::shared_ptr<RoomJournal> journal, RoomRestore state) {
  auto room =
      std::make_shared<Room>(std::move(ex), std::move(setup), settings, lobby, std::move(journal));
  room->opened_ = true;
  room->match_ = std::move(state.match);
  room->seed_ = state.seed;
  room->commit_ = engine::seed_commitment(state.seed);  // R1: the same commitment as before
  for (std::size_t s = 0; s < room->seats_.size() && s < state.seats.size(); ++s)
    room->seats_[s].player = std::move(state.seats[s]);
  room->version_ = state.version;
  room->game_no_ = state.game_no;
  room->step_at_ms_ = state.step_at_ms;
  // A game clock stands as the last step left it: the time since then, the server's downtime
  // included, is charged to nobody; the deciding seat's time runs again from now.
  room->start_clocks();
  if (state.clocks.size() == room->remaining_.size()) room->remaining_ = state.clocks;
  for (std::size_t c = 0; c < room->chat_.size(); ++c) {
    room->chat_[c].next = state.chat[c].next;
    room->chat_[c].recent.assign(state.chat[c].lines.begin(), state.chat[c].lines.end());
  }
  if (state.finished_at_ms != 0)  // idle since the game ended, however long the server was down
    room->idle_since_ =
        std::chrono::steady_clock::now() -
        std::chrono::milliseconds(std::max<std::int64_t>(0, wall_ms() - state.finished_at_ms));
  lobby->add(room);
  room->publish();  // listed (and in welcome's seats) before the server takes its first request
  // From the strand like every change: publishes, arms the clocks and retention, asks a CPU.
  room->enqueue([room] { room->after_change(); });
  return room;
}

void Room::check_retention() {
  bool asked = false;
  for (const auto& s : seats_) asked = asked || s.rematch;
  const auto st = status();
  bool idle = (st == RoomStatus::finished && (!asked || members_.empty())) ||
              (st == RoomStatus::waiting && members_.empty());
  if (!idle || retired_ || broken_) return idle_since_.reset();
  if (!idle_since_) idle_since_ = std::chrono::steady_clock::now();
  if (retire_armed_ || stopped_) return;
  retire_armed_ = true;
  retire_.expires_at(*idle_since_ + settings_.retention);
  retire_.async_wait([self = shared_from_this()](boost::system::error_code ec) {
    self->retire_armed_ = false;
    if (!ec) self->on_retention();
  });
}

void Room::on_retention() {
  if (!idle_since_ || retired_ || stopped_) return;
  if (std::chrono::steady_clock::now() < *idle_since_ + settings_.retention)
    return check_retention();  // idle again since a later moment: wait the rest
  const bool waiting = status() == RoomStatus::waiting;
  auto retire = [this, self = shared_from_this(), waiting] {
    retired_ = true;
    lobby_->remove(id());
    spdlog::info("room {} leaves memory: {}", id(),
                 waiting ? "abandoned while waiting" : "finished, no rematch asked");
  };
  if (!waiting) return retire();  // the records stay in the store
  if (busy_) return backlog_.push_back([this, self = shared_from_this()] { on_retention(); });
  // A waiting room everyone left: journaled so that recovery never brings it back.
  journal({{JournalEntry::Kind::abandoned, id(), version_, engine::kNoSeat, nullptr}}, retire);
}

}  // namespace tanbo::server
