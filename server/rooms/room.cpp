#include "server/rooms/room.hpp"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <stdexcept>

#include "server/rooms/lobby.hpp"

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

}  // namespace

Room::Room(net::any_io_executor ex, RoomSetup setup, RoomSettings settings,
           std::shared_ptr<Lobby> lobby, std::shared_ptr<RoomJournal> journal)
    : strand_(net::make_strand(ex)),
      setup_(std::move(setup)),
      settings_(settings),
      lobby_(std::move(lobby)),
      journal_(std::move(journal)),
      seed_(fresh_seed()),
      commit_(engine::seed_commitment(seed_)),
      seats_(std::size_t(setup_.players)) {}

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

void Room::journal(std::vector<JournalEntry> entries, std::function<void()> then) {
  if (entries.empty()) return then();
  busy_ = true;
  auto first = std::move(entries.front());
  entries.erase(entries.begin());
  journal_->append(std::move(first), [self = shared_from_this(), rest = std::move(entries),
                                      then = std::move(then)](bool ok) mutable {
    net::post(self->strand_, [self, ok, rest = std::move(rest), then = std::move(then)]() mutable {
      self->busy_ = false;
      if (!ok) {
        spdlog::error("room {}: journal append failed; the room stops here", self->id());
        self->broken_ = true;
      } else {
        self->journal(std::move(rest), std::move(then));
      }
      self->drain();
    });
  });
}

// ---- entry points -------------------------------------------------------------------------

void Room::open(Peer peer, Identity who, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), who = std::move(who), re] {
    self->opened_ = true;
    engine::Record r;
    r.game = self->setup_.info->id;
    r.options = self->setup_.options;
    r.setup = self->setup_.setup;
    r.players = self->setup_.players;
    r.seed = self->seed_;
    JournalEntry e{JournalEntry::Kind::created,
                   self->id(),
                   0,
                   engine::kNoSeat,
                   {{"head", r.to_json()}, {"owner", who.id}, {"ranked", self->setup_.ranked}}};
    self->journal({std::move(e)}, [self, peer, who, re] {
      spdlog::info("room {} created by {}: {} for {}", self->id(), who.id, self->setup_.info->id,
                   self->setup_.players);
      peer->send(protocol::share(protocol::created(re, self->id())));
      self->do_join(peer, who, protocol::Join{self->id(), protocol::Role::player, 0}, re);
    });
  });
}

void Room::join(Peer peer, Identity who, protocol::Join j, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), who = std::move(who),
           j = std::move(j), re] { self->do_join(peer, who, j, re); });
}
void Room::act(Peer peer, protocol::Act a, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), a = std::move(a), re] {
    self->do_act(peer, a, re);
  });
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

// ---- requests -----------------------------------------------------------------------------

void Room::do_join(const Peer& peer, const Identity& who, const protocol::Join& j, const Id& re) {
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
  auto finish = [this, peer, who, seat, j, re] {
    if (Member* m = member(peer->id())) {
      m->seat = seat;
    } else {
      members_.push_back(Member{peer, peer->id(), who.id, seat});
    }
    peer->send(protocol::share(protocol::joined(
        re, id(), j.as, seat == engine::kNoSeat ? std::nullopt : std::optional(seat))));
    after_change();
  };
  if (!taken_now) return finish();

  seats_[std::size_t(seat)].player = who;
  std::vector<JournalEntry> entries;
  entries.push_back(
      {JournalEntry::Kind::seat, id(), version_, seat, {{"player", who.id}, {"name", who.name}}});
  bool full = true;
  for (const auto& s : seats_) full = full && s.player.has_value();
  if (full && !match_) {
    if (!start_game(setup_.options)) return;  // broken_ is set; the journal never saw the seat
    entries.back().version = version_;
  }
  journal(std::move(entries), finish);
}

void Room::do_act(const Peer& peer, const protocol::Act& a, const Id& re) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  const Member* m = member(peer->id());
  if (!m || m->seat == engine::kNoSeat)
    return refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
  if (!match_) return refuse(peer, ErrorCode::not_your_turn, "the game has not started", re);
  if (match_->game().status() == engine::Status::finished)
    return refuse(peer, ErrorCode::game_over, "the game is over", re);
  if (a.version != version_)
    return refuse(
        peer, ErrorCode::stale_version,
        "the room is at version " + std::to_string(version_) + ", not " + std::to_string(a.version),
        re);
  engine::Seat seat = m->seat;
  if (auto no = match_->act(seat, a.action))
    return refuse(peer, code_of(no->code), no->message, re);
  ++version_;
  step({{JournalEntry::Kind::action, id(), version_, seat, a.action}});
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
  step({{JournalEntry::Kind::action, id(), version_, seat, engine::Json(engine::kResign)}});
}

void Room::do_rematch(const Peer& peer, const Id& re) {
  if (broken_) return refuse(peer, ErrorCode::internal, "the room has failed", re);
  const Member* m = member(peer->id());
  if (!m || m->seat == engine::kNoSeat)
    return refuse(peer, ErrorCode::not_seated, "you hold no seat in this room", re);
  if (!match_ || match_->game().status() != engine::Status::finished)
    return refuse(peer, ErrorCode::not_finished, "the game has not finished", re);
  seats_[std::size_t(m->seat)].rematch = true;
  bool all = true;
  for (const auto& s : seats_) all = all && s.rematch;
  if (!all) return after_change();
  engine::Json options = setup_.options;
  // R6: with alternate_first each rematch moves the first seat one on, in turn order.
  if (settings_.alternate_first) options["first"] = (match_->first() + 1) % setup_.players;
  seed_ = fresh_seed();
  commit_ = engine::seed_commitment(seed_);
  for (auto& s : seats_) s.rematch = false;
  if (!start_game(options)) return after_change();
  step({{JournalEntry::Kind::rematch,
         id(),
         version_,
         engine::kNoSeat,
         {{"head", match_->record().to_json()}}}});
}

void Room::do_leave(const Peer& peer, const Id& re) {
  std::erase_if(members_, [&](const Member& m) { return m.peer_id == peer->id(); });
  peer->send(protocol::share(protocol::left(re, id())));
  // R3: leaving is not resigning; the seat stays the player's.
  after_change();
}

void Room::do_resume(const Peer& peer, const protocol::Resume& r, const Id& re) {
  const Member* m = member(peer->id());
  Member once{peer, peer->id(), {}, engine::kNoSeat};
  if (!m) m = &once;
  bool covered =
      r.version <= version_ &&
      (r.version == version_ || (!history_.empty() && history_.front().version <= r.version + 1));
  if (covered) {
    std::vector<protocol::Step> steps;
    for (const auto& s : history_)
      if (s.version > r.version) steps.push_back(s);
    peer->send(protocol::share(protocol::resumed(re, id(), version_, steps)));
  }
  send_state(*m);
}

void Room::do_disconnect(std::uint64_t peer_id) {
  auto before = members_.size();
  std::erase_if(members_, [&](const Member& m) { return m.peer_id == peer_id; });
  if (members_.size() != before) after_change();
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
  spdlog::info("room {} started: {} version {} first seat {}", id(), setup_.info->id, version_,
               match_->first());
  return true;
}

void Room::step(std::vector<JournalEntry> entries) {
  bool finished = match_->game().status() == engine::Status::finished;
  if (finished) {
    const auto& res = match_->game().result();
    entries.push_back({JournalEntry::Kind::finished,
                       id(),
                       version_,
                       engine::kNoSeat,
                       {{"places", res.places}, {"reason", res.reason}}});
  }
  journal(std::move(entries), [this, self = shared_from_this(), finished] {
    if (finished)
      spdlog::info("room {} finished at version {}: {}", id(), version_,
                   match_->game().result().reason);
    after_change();
  });
}

void Room::after_change() {
  // Each step is kept once, whatever else moved the room at the same version.
  if (match_ && (history_.empty() || history_.back().version != version_) && version_ > 0)
    history_.push_back({version_, match_->events()});
  while (history_.size() > settings_.history) history_.pop_front();
  publish();  // the lobby knows the change before any member sees it
  refresh();
  for (const auto& m : members_) send_state(m);
  if (status() == RoomStatus::finished && members_.empty()) lobby_->remove(id());
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
      result = match_->game().result();
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
  v.spectators = spectators();
  v.state = match_ ? &state : nullptr;
  v.pending = match_ && st == RoomStatus::playing ? &pending : nullptr;
  v.events = match_ ? &match_->events() : nullptr;
  v.result = result ? &*result : nullptr;
  v.commit = commit_;
  v.seed = seed;
  v.rematch = rematch;
  frame_ = protocol::share(protocol::state(v));
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

void Room::refuse(const Peer& peer, ErrorCode code, std::string message, const Id& re) const {
  spdlog::debug("room {}: refused {}: {}", id(), protocol::to_string(code), message);
  peer->send(protocol::share(protocol::error(code, std::move(message), re)));
}

void Room::publish() {
  protocol::RoomSummary s;
  s.room = id();
  s.game = setup_.info->id;
  s.options = match_ ? match_->record().options : setup_.options;
  s.status = status();
  s.seats = seat_views();
  s.spectators = spectators();
  s.ranked = setup_.ranked;
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
    if (seats_[s].player)
      out[s].player = protocol::Player{seats_[s].player->id, seats_[s].player->name};
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

}  // namespace tanbo::server
