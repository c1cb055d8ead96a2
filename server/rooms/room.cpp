// A room: its strand, its journal appends in order, and the entry points every request comes
// through. The rest of Room is in room_members.cpp, room_steps.cpp, room_turns.cpp,
// room_chat.cpp and room_retention.cpp.
#include "server/rooms/room.hpp"

#include <openssl/rand.h>
#include <spdlog/spdlog.h>

#include <boost/asio/post.hpp>
#include <chrono>
#include <stdexcept>

#include "server/metrics/metrics.hpp"
#include "server/rooms/lobby.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

namespace net = boost::asio;
using protocol::ErrorCode;

// R1: every game's seed comes from the OS's secure source.
engine::Seed fresh_seed() {
  engine::Seed s{};
  if (RAND_bytes(s.data(), static_cast<int>(s.size())) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return s;
}

Room::Room(RoomsExecutor ex, RoomSetup setup, RoomSettings settings, std::shared_ptr<Lobby> lobby,
           std::shared_ptr<RoomJournal> journal)
    : strand_(net::make_strand(ex)),
      setup_(std::move(setup)),
      settings_(settings),
      lobby_(std::move(lobby)),
      journal_(std::move(journal)),
      seed_(fresh_seed()),
      commit_(engine::seed_commitment(seed_)),
      roster_(setup_.players),
      frames_(settings_.history),
      clock_(time_control_of(setup_.timer), settings_.timer_second, settings_.correspondence_day),
      turn_timer_(strand_),
      away_(std::size_t(setup_.players)),
      retire_(strand_),
      retry_(strand_) {
  left_.assign(std::size_t(setup_.players), false);
}

// ---- the strand and the journal -----------------------------------------------------------

void Room::enqueue(std::function<void()> fn) {
  net::post(strand_, [self = shared_from_this(), fn = std::move(fn)]() mutable {
    if (self->store_ != Store::ready) return self->backlog_.push_back(std::move(fn));
    fn();
  });
}

void Room::enqueue_change(Peer peer, Id re, std::function<void()> fn,
                          std::function<void()> refused) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), re = std::move(re),
                      fn = std::move(fn), refused = std::move(refused)]() mutable {
    if (self->store_ == Store::stalled) {
      if (refused) refused();
      return self->refuse(peer, ErrorCode::store_unavailable,
                          "the room cannot store anything now; nothing changed, try again", re);
    }
    if (self->store_ != Store::ready) return self->backlog_.push_back(std::move(fn));
    fn();
  });
}

void Room::drain() {
  while (store_ == Store::ready && !backlog_.empty()) {
    auto fn = std::move(backlog_.front());
    backlog_.pop_front();
    fn();
  }
}

void Room::journal(std::vector<JournalEntry> entries, std::function<void()> then, Asker asker) {
  if (entries.empty()) return then();
  if (store_ == Store::ready) store_ = Store::writing;  // a stalled room stays stalled
  entries.front().game = game_no_;
  entries.front().epoch = epoch_;
  // Copied before the call: the callback's capture moves `entries`, and an argument's order of
  // evaluation is the compiler's choice.
  JournalEntry head = entries.front();
  journal_->append(std::move(head), [self = shared_from_this(), entries = std::move(entries),
                                     then = std::move(then), asker = std::move(asker),
                                     appended = metrics::Clock::now()](Appended a) mutable {
    metrics::observe_commit(appended);
    net::post(self->strand_, [self, a, entries = std::move(entries), then = std::move(then),
                              asker = std::move(asker)]() mutable {
      if (a == Appended::unavailable)
        return self->hold(std::move(entries), std::move(then), std::move(asker));
      self->stored_again();
      if (a == Appended::fenced) return self->fenced(asker);
      if (a == Appended::refused) {
        spdlog::error("room {}: the store refused its change; the room stops here", self->id());
        self->enter(Life::broken);
        if (asker.peer)
          self->refuse(asker.peer, ErrorCode::internal, "the room failed to store it", asker.re);
      } else {
        entries.erase(entries.begin());
        self->journal(std::move(entries), std::move(then), std::move(asker));
      }
      self->drain();
    });
  });
}

// Durable before visible, through an outage of the store: the change that met it is kept, not
// shown, and written again with back-off (100 ms, doubling, at most 5 s); whoever asked for it is
// answered once it is stored. Meanwhile every request that would change the room is refused
// store_unavailable at once, and the rest waits in the backlog.
void Room::hold(std::vector<JournalEntry> entries, std::function<void()> then, Asker asker) {
  if (store_ != Store::stalled) {
    store_ = Store::stalled;
    stalled_since_ = std::chrono::steady_clock::now();
    backoff_ = kFirstRetry;
    metrics::room_stalled(true);
    spdlog::warn(
        "room {}: the store cannot take its change at version {}; it refuses moves "
        "(store_unavailable) and tries again until the store is back",
        id(), version_);
  }
  if (quiet()) return give_up();
  retry_.expires_after(backoff_);
  backoff_ = std::min(backoff_ * 2, kLastRetry);
  retry_.async_wait([self = shared_from_this(), entries = std::move(entries),
                     then = std::move(then),
                     asker = std::move(asker)](boost::system::error_code ec) mutable {
    if (ec || self->quiet()) return self->give_up();
    self->journal(std::move(entries), std::move(then), std::move(asker));
  });
}

void Room::stored_again() {
  if (std::exchange(store_, Store::ready) != Store::stalled) return;
  metrics::room_stalled(false);
  const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - stalled_since_);
  spdlog::info("room {}: stored again after {} ms; it plays on at version {}", id(), took.count(),
               version_);
}

// Another node took the room over while this one could not tell (frozen past its lease, cut off
// from Redis): the store refused the change, which nobody saw; the room lets go, and its members
// reconnect to find it on its owner.
void Room::fenced(const Asker& asker) {
  spdlog::warn("room {}: another node took it over; its change at version {} was not stored", id(),
               version_);
  if (asker.peer)
    refuse(asker.peer, ErrorCode::room_moved,
           "another node runs this room now; nothing changed: join it again", asker.re);
  lose("another node runs this room now: join it again");
  enter(Life::broken);  // until lose() runs: refuse what the backlog holds
  drain();
}

// The room is stopping with a change never stored: nobody was told of it, and nobody will be.
// What waited behind it runs, so that a shutdown's settled() is answered.
void Room::give_up() {
  if (store_ != Store::stalled) return;
  spdlog::warn("room {}: stops with its change at version {} not stored", id(), version_);
  store_ = Store::ready;
  metrics::room_stalled(false);
  enter(Life::broken);
  drain();
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
  roster_.seats[std::size_t(seat)].player = who;
  return {JournalEntry::Kind::seat, id(), version_, seat, {{"player", who.id}, {"name", who.name}}};
}

void Room::open(Peer peer, Identity who, Id re) {
  enqueue([self = shared_from_this(), peer = std::move(peer), who = std::move(who), re] {
    std::vector<JournalEntry> entries;
    entries.push_back(self->created_entry(who.id));
    for (const auto& c : self->setup_.cpu)  // checked by the client: free seats, never seat 0
      entries.push_back(self->take_seat(c.seat, cpu_identity(c.level)));
    self->journal(std::move(entries), [self, peer, who, re] {
      spdlog::info("room {} created by {}: {} for {}", self->id(), who.id, self->setup_.info->id,
                   self->setup_.players);
      // `created` answers the request, with the creator's state; no `joined` of its own.
      self->do_join(peer, who, protocol::Join{self->id(), protocol::Role::player, 0}, re,
                    protocol::share(protocol::created(re, self->id(), 0)));
    });
  });
}

void Room::open_seated(std::vector<Identity> seats) {
  enqueue([self = shared_from_this(), seats = std::move(seats)] {
    std::vector<JournalEntry> entries;
    entries.push_back(self->created_entry(""));
    for (std::size_t s = 0; s < seats.size() && s < self->roster_.seats.size(); ++s)
      entries.push_back(self->take_seat(engine::Seat(s), seats[s]));
    if (!self->start_game(self->setup_.options)) return;  // broken: joins are refused
    entries.back().version = self->version_;
    self->journal(std::move(entries), [self] {
      spdlog::info("room {} made by pairing: {} for {}", self->id(), self->setup_.info->id,
                   self->setup_.players);
      self->after_change();
    });
  });
}

void Room::join(Peer peer, Identity who, protocol::Join j, Id re, std::vector<std::string> mutes) {
  enqueue_change(peer, re,
                 [self = shared_from_this(), peer, who = std::move(who), j = std::move(j), re,
                  mutes = std::move(mutes)] { self->do_join(peer, who, j, re, nullptr, mutes); });
}
void Room::act(Peer peer, protocol::Act a, Id re, std::function<void()> accepted) {
  enqueue_change(peer, re,
                 [self = shared_from_this(), peer, a = std::move(a), re,
                  accepted = std::move(accepted)] { self->do_act(peer, a, re, accepted); });
}
void Room::resign(Peer peer, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, re] { self->do_resign(peer, re); });
}
void Room::rematch(Peer peer, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, re] { self->do_rematch(peer, re); });
}
void Room::leave(Peer peer, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, re] { self->do_leave(peer, re); });
}
void Room::resume(Peer peer, protocol::Resume r, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, r = std::move(r), re] {
    self->do_resume(peer, r, re);
  });
}
void Room::disconnect(std::uint64_t peer_id) {
  enqueue([self = shared_from_this(), peer_id] { self->do_disconnect(peer_id); });
}
void Room::fill_cpu(Peer peer, protocol::CpuLevel level, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, level, re] {
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
  net::post(strand_, [self = shared_from_this()] { self->enter(Life::stopped); });
}

void Room::enter(Life next) {
  if (next <= life_) return;
  life_ = next;
  if (!quiet()) return;
  turn_timer_.cancel();
  retire_.cancel();
  retry_.cancel();
  for (auto& a : away_)
    if (a.timer) a.timer->cancel();
}

void Room::lose(std::string why) {
  net::post(strand_, [self = shared_from_this(), why = std::move(why)] {
    if (self->life_ == Life::retired || self->life_ == Life::lost) return;
    spdlog::error("room {} lost: {}", self->id(), why);
    self->enter(Life::lost);
    auto frame = protocol::share(protocol::error(ErrorCode::room_moved, why, Id{}));
    for (const auto& m : self->roster_.members)
      if (auto p = m.peer.lock()) {
        p->send(frame);
        p->close(CloseCode::going_away);
      }
    self->roster_.members.clear();
    self->lobby_->remove(self->id());
  });
}

}  // namespace tanbo_server::server
