#pragma once
// One game room: the single writer of its state, on its own strand. Sessions post requests to it;
// it owns the Match (null while seats are free), the version and the seed behind its commitment
// (R1), with its parts: the seats and members (Roster), the time control's arithmetic
// (RoomClock) and what it sends (RoomFrames, with the last steps for `resume`). Every change goes
// to the journal first and is broadcast once the journal says it is durable; requests arriving
// meanwhile wait in order on the strand (never refused for it).
#include <array>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/core/match.hpp"
#include "protocol/client.hpp"
#include "protocol/server.hpp"
#include "server/bots/pool.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/executor.hpp"
#include "server/rooms/journal.hpp"
#include "server/rooms/room_clock.hpp"
#include "server/rooms/room_frames.hpp"
#include "server/rooms/roster.hpp"

namespace tanbo_server::server {

class Lobby;

struct RoomSettings {
  std::size_t history = 64;     // steps kept for resume
  bool alternate_first = true;  // R6: each rematch moves the first seat one on
  // CPU seats, timers and takeover (docs/bots.md, "In the server").
  std::shared_ptr<BotPool> bots;                     // null: CPU seats are never asked
  std::chrono::milliseconds takeover_grace{30'000};  // away this long: the CPU plays the seat
  std::chrono::milliseconds timer_second{1000};      // a timer second (tests shorten it)
  std::chrono::milliseconds correspondence_day{0};   // 0: 86,400 timer seconds
  // A finished room with no rematch asked, or a waiting room nobody is in, leaves memory (and
  // the lobby) this long after; a waiting one is also journaled abandoned (never recovered).
  std::chrono::milliseconds retention{600'000};
};

struct RoomSetup {
  std::string id;
  const engine::GameInfo* info = nullptr;
  engine::Json options;  // as created (validated by the engine), `first` as given
  engine::Json setup;
  int players = 2;
  bool ranked = false;
  Identity owner;
  // The turn timer and takeover settings, journaled with the room and kept by the store as
  // RoomRow.timer; {} means no timer. Its keys belong to the room's timer code.
  engine::Json timer = engine::Json::object();
  std::vector<protocol::CpuSeat> cpu = {};  // seats the computer takes at creation (never seat 0)
  // The creator's address (limit key), for the per-address room limit: kept in memory only,
  // never journaled; empty for a room recovery brought back.
  std::string address = {};
};

// R1: a new game's seed, from the OS's secure source.
engine::Seed fresh_seed();

// A channel's recent chat as the store kept it: the lines (`said` objects, oldest first) and the
// next line's number.
struct ChatTail {
  std::vector<engine::Json> lines;
  std::int64_t next = 1;
};

// A room as recovery rebuilt it from the store (its Match replayed from the record, R2).
struct RoomRestore {
  std::unique_ptr<engine::Match> match;  // null: the game has not started (seats free)
  engine::Seed seed{};                   // the current game's (R1: its commitment is public)
  std::vector<std::optional<Identity>> seats;
  std::uint64_t version = 0;
  int game_no = 1;
  std::int64_t step_at_ms = 0;       // the last logged action's time, or the game's start
  std::int64_t finished_at_ms = 0;   // a finished game's end: its retention runs from there
  std::array<ChatTail, 2> chat;      // by protocol::Channel
  std::vector<std::int64_t> clocks;  // a game clock's remaining ms per seat at the last step
  // Per seat: the computer made its last decision of this game for its absent player.
  std::vector<bool> left;
  engine::Json ratings = nullptr;  // a finished game's rating changes, as the store kept them
  std::int64_t epoch = 0;          // the room's owner epoch as this node took it (fencing)
};

class Room final : public std::enable_shared_from_this<Room> {
 public:
  using Peer = std::shared_ptr<WsPeer>;
  using Id = protocol::Id;

  // A recovered room, added to the lobby; it publishes itself from its strand.
  static std::shared_ptr<Room> restore(RoomsExecutor ex, RoomSetup setup, RoomSettings settings,
                                       std::shared_ptr<Lobby> lobby,
                                       std::shared_ptr<RoomJournal> journal, RoomRestore state);

  Room(RoomsExecutor ex, RoomSetup setup, RoomSettings settings, std::shared_ptr<Lobby> lobby,
       std::shared_ptr<RoomJournal> journal);

  const std::string& id() const { return setup_.id; }
  bool ranked() const { return setup_.ranked; }
  const std::string& owner() const { return setup_.owner.id; }
  const std::string& address() const { return setup_.address; }

  // Each call is posted to the room's strand; replies and states go to `peer`.
  void open(Peer peer, Identity who, Id re);  // journals the room, then seats the creator at 0
  // A room a pairing made: every seat taken (people and the computer), the game starts at once.
  void open_seated(std::vector<Identity> seats);
  // `mutes`: the identities whose chat lines the joiner does not get.
  void join(Peer peer, Identity who, protocol::Join j, Id re, std::vector<std::string> mutes = {});
  // `accepted` runs (on the room's strand) when the move is taken: its token goes back.
  void act(Peer peer, protocol::Act a, Id re, std::function<void()> accepted);
  void resign(Peer peer, Id re);
  void rematch(Peer peer, Id re);
  void leave(Peer peer, Id re);
  void resume(Peer peer, protocol::Resume r, Id re);
  void disconnect(std::uint64_t peer_id);
  // A seated player fills every free seat with the CPU at `level`; the game starts.
  void fill_cpu(Peer peer, protocol::CpuLevel level, Id re);
  // Chat (docs/protocol.md, "Chat"; room_chat.cpp). `shadow`: the sender is shadow-muted, its
  // line reaches its own connections only (and is not stored). `refused` runs when the room
  // refuses the line: the chat's buckets give back what it took.
  void say(Peer peer, Identity who, protocol::Say s, bool shadow, Id re,
           std::function<void()> refused = {});
  void set_mutes(std::uint64_t peer_id, std::vector<std::string> mutes);
  void set_mutes_now(std::uint64_t peer_id, std::vector<std::string> mutes);  // on the strand
  // An operator removed line `n`: its readers are told (`unsaid`); the store already marked it.
  void unsay(protocol::Channel channel, std::int64_t n);
  void set_spectator_chat(Peer peer, Identity who, bool open, Id re);
  bool spectator_chat() const;  // from the room's settings, on its strand
  // Cancels the room's timers and asks no more bots (service shutdown). Posted to the strand.
  void stop();
  // Runs `done` on the strand once every request queued so far is through, the store writes
  // it caused committed and their states sent.
  void settled(std::function<void()> done);
  // Another node of the cluster owns the room (server/cluster/): every member gets an `error`
  // (room_moved) with `why` and is closed with going_away, the room leaves the lobby and refuses
  // everything after. Posted to the strand, past a journal append in flight.
  void lose(std::string why);

 private:
  using Seat = Roster::Seat;
  using Member = Roster::Member;

  JournalEntry created_entry(const std::string& owner) const;
  JournalEntry take_seat(engine::Seat seat, const Identity& who);  // its journal entry
  // Runs fn on the strand, after the backlog while a journal append is in flight.
  void enqueue(std::function<void()> fn);
  // The same for a request that changes the room; while the store fails (stalled) it is refused
  // store_unavailable instead, `refused` running first when given.
  void enqueue_change(Peer peer, Id re, std::function<void()> fn,
                      std::function<void()> refused = {});
  void drain();
  // Who asked for a step: answered `ok` once the step is stored and broadcast.
  struct Asker {
    Peer peer;
    Id re;
  };
  // Appends entries in order, then runs `then` on the strand. An append the store cannot take
  // now is held and tried again (hold); one it refuses breaks the room and answers the asker
  // `internal` instead.
  void journal(std::vector<JournalEntry> entries, std::function<void()> then, Asker asker = {});
  void hold(std::vector<JournalEntry> entries, std::function<void()> then, Asker asker);
  void stored_again();  // ends a stall: the store took the held change
  void give_up();       // a stalled room stops: its held change is dropped, its backlog runs
  void fenced(const Asker& asker);  // the store says another node owns the room: let it go

  // `created`: the creator's answer, sent with its state in place of `joined`.
  // `mutes`: the joiner's, applied before its `joined` carries the history.
  void do_join(const Peer& peer, const Identity& who, const protocol::Join& j, const Id& re,
               protocol::Frame created = nullptr, std::vector<std::string> mutes = {});
  void do_act(const Peer& peer, const protocol::Act& a, const Id& re,
              const std::function<void()>& accepted);
  void do_resign(const Peer& peer, const Id& re);
  void do_rematch(const Peer& peer, const Id& re);
  void do_leave(const Peer& peer, const Id& re);
  void do_resume(const Peer& peer, const protocol::Resume& r, const Id& re);
  void do_say(const Peer& peer, const Identity& who, const protocol::Say& s, bool shadow,
              const Id& re, const std::function<void()>& refused);
  // May this member read / write the channel now?
  bool reads(const Member& m, protocol::Channel c) const;
  // The recent lines of the channels `m` reads, after the given numbers (nullopt: all kept).
  engine::Json chat_for(const Member& m, std::optional<std::int64_t> players_after = {},
                        std::optional<std::int64_t> spectators_after = {}) const;
  void do_disconnect(std::uint64_t peer_id);
  // The one guard of what only a seated player may ask (act, resign, rematch, fill_cpu): the
  // asker's member, or null once it was refused (the room failed, or it holds no seat).
  const Member* seated(const Peer& peer, const Id& re) const;
  void do_fill_cpu(const Peer& peer, protocol::CpuLevel level, const Id& re);

  // The one way an action enters the game, a person's or a CPU's: the version it was chosen on,
  // Match::act (the legal list, verbatim), then the journal and the broadcast.
  std::optional<std::pair<protocol::ErrorCode, std::string>> play(engine::Seat seat,
                                                                  std::uint64_t version,
                                                                  const engine::Json& action,
                                                                  Asker asker = {},
                                                                  std::string_view by = {});
  // CPU seats, timers and takeover: run after every change.
  void watch_seats();    // arms or ends each away player's grace; ends a takeover on return
  void next_decision();  // a CPU (or taken-over) seat asks the pool; a timed seat arms its clock
  std::optional<protocol::CpuLevel> cpu_for(engine::Seat seat) const;
  // `why` goes into the action's event as `by`: "cpu" (a CPU seat), "takeover" (its player is
  // away), "timer" (its time ran out).
  void ask_bot(engine::Seat seat, protocol::CpuLevel level, std::string_view why);
  void do_bot_act(std::uint64_t version, engine::Seat seat, const engine::Json& action,
                  std::string_view why);
  void arm_clock();  // turn_timer_ at the deciding seat's deadline, once per version
  void on_clock(std::uint64_t version);
  void on_grace(std::size_t seat, std::uint64_t generation);
  protocol::CpuLevel takeover_level() const;

  // The deciding seat's time ran out by `now` (game clock, correspondence): it loses, a step of
  // its own; true when that happened (room_turns.cpp; docs/protocol.md, "Time controls").
  bool time_out_if_due(std::int64_t now);
  engine::Seat to_decide() const;  // the seat the game waits for; kNoSeat once over

  bool start_game(engine::Json options);  // a new Match from a fresh seed; one step
  // Journals, then refreshes and broadcasts; the asker's `ok` follows the new state.
  void step(std::vector<JournalEntry> entries, Asker asker = {});
  void answer(const Asker& asker) const;  // `ok` with the room's version
  // `ok` for a request that had an id (none otherwise), as text: no tree built per move.
  void send_ok(const Peer& peer, const Id& re, std::optional<std::uint64_t> version = {}) const;
  // Refresh, broadcast, publish to the lobby; `answer` goes to `answered` with its state.
  void after_change(std::uint64_t answered = 0, protocol::Frame answer = nullptr);
  // Builds the state frames once, version 1's too when a member (or `v1`: the asker) speaks it.
  void refresh(bool v1 = false);
  // frames_.send, the frames rebuilt first if the spectator count moved since.
  void send_current_state(const Member& m, protocol::Frame answer = nullptr);
  void spectators_changed();  // the lobby and retention; no frame to members
  void refuse(const Peer& peer, protocol::ErrorCode code, std::string message, const Id& re) const;
  void publish();
  protocol::RoomStatus status() const;

  boost::asio::strand<RoomsExecutor> strand_;
  RoomSetup setup_;
  RoomSettings settings_;
  std::shared_ptr<Lobby> lobby_;
  std::shared_ptr<RoomJournal> journal_;

  std::unique_ptr<engine::Match> match_;
  engine::Seed seed_{};
  std::string commit_;
  Roster roster_;
  std::uint64_t version_ = 0;
  RoomFrames frames_;
  // What the lobby last got from publish(); options change only with a new game.
  struct Listed {
    protocol::RoomStatus status;
    std::vector<protocol::SeatView> seats;
    int spectators;
    int game_no;
    bool started;
    bool spectator_chat;
    friend bool operator==(const Listed&, const Listed&) = default;
  };
  struct Turn {  // what a move that only passes the turn changes in the listing
    std::optional<engine::Seat> to_move;
    std::optional<std::int64_t> deadline_ms;
    friend bool operator==(const Turn&, const Turn&) = default;
  };
  std::optional<Listed> listed_;
  Turn turn_listed_;

  RoomClock clock_;                       // from setup_.timer; wall-clock times (Unix ms)
  boost::asio::steady_timer turn_timer_;  // wakes the room at clock_'s deadline
  std::uint64_t timer_version_ = 0;       // the version turn_timer_ is armed for (0: none)
  std::uint64_t asked_version_ = 0;       // the version a bot is deciding (0: none)
  struct Away {
    std::unique_ptr<boost::asio::steady_timer> timer;
    std::uint64_t generation = 0;  // a firing of an older arming is ignored
    bool armed = false;
  };
  std::vector<Away> away_;  // per seat: the grace before a takeover

  // Retention: when the room became idle (finished with no rematch asked, or waiting with nobody
  // in it); the timer checks it again once `retention` has passed.
  void check_retention();
  void on_retention();
  boost::asio::steady_timer retire_;
  std::optional<std::chrono::steady_clock::time_point> idle_since_;
  bool retire_armed_ = false;
  int game_no_ = 1;         // the room's game: 1, then one more per rematch (as the store counts)
  std::int64_t epoch_ = 0;  // this node's owner epoch of the room, on every journal entry

  // The honest result (docs/rules.md, "Results"): per seat, whether the computer made its last
  // decision of this game for its absent player (a takeover); once finished, those seats (the
  // result's `takeover`) and what the game did to the ratings (null: not rated), as the store
  // answered the finished entry.
  std::vector<bool> left_;
  std::vector<engine::Seat> takeover_;
  engine::Json ratings_ = nullptr;

  struct ChatChannel {
    std::int64_t next = 1;
    std::deque<engine::Json> recent;  // `said` objects, at most protocol::kChatHistory
  };
  std::array<ChatChannel, 2> chat_;  // by protocol::Channel
  // Each identity's last lines here, which its next may not repeat within a minute, whichever of
  // its connections says it; an identity silent for a minute is dropped at the next sweep.
  using SaidAt = std::pair<std::chrono::steady_clock::time_point, std::string>;
  std::unordered_map<std::string, std::deque<SaidAt>> said_;
  std::chrono::steady_clock::time_point said_swept_{};
  bool repeats(const std::string& identity, const protocol::Say& s);  // recorded when not

  // Where the room is in its life. It only moves on, through enter(), and each state holds what
  // the ones before it do: a broken room keeps no timers either, a lost one refuses too.
  enum class Life : std::uint8_t {
    live,
    retired,  // idle past the retention time: out of the lobby (its records stay in the store)
    stopped,  // the service stops: no timers, no bots; requests are still served
    broken,   // the store refused a change, or a game did not start: every request is refused
    lost,     // another node runs the room: its members were sent there
  };
  void enter(Life next);  // every change of life_; from stopped on, the timers are cancelled
  bool refusing() const { return life_ >= Life::broken; }
  bool quiet() const { return life_ >= Life::stopped; }  // no timers, no bots
  Life life_ = Life::live;
  // The journal: an append in flight (writing) keeps every request behind it in backlog_; while
  // the store fails (stalled) the change that met it is held, not shown, and written again after
  // backoff_, and requests that would change the room are refused store_unavailable.
  enum class Store : std::uint8_t { ready, writing, stalled };
  Store store_ = Store::ready;
  std::chrono::steady_clock::time_point stalled_since_{};
  static constexpr std::chrono::milliseconds kFirstRetry{100}, kLastRetry{5000};
  std::chrono::milliseconds backoff_ = kFirstRetry;
  boost::asio::steady_timer retry_;
  std::deque<std::function<void()>> backlog_;
};

}  // namespace tanbo_server::server
