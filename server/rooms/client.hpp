#pragma once
// One WebSocket connection as the protocol sees it: hello first, a token bucket on incoming
// messages, and dispatch to the lobby and the rooms. Beast-free; calls come from the peer's
// strand one at a time, so the Client needs no lock of its own.
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "protocol/limits.hpp"

#include "protocol/client.hpp"
#include "server/accounts/accounts.hpp"
#include "server/identity/guest_limit.hpp"
#include "server/identity/identities.hpp"
#include "server/net/frame_handler.hpp"
#include "server/pairing/challenges.hpp"
#include "server/pairing/pools.hpp"
#include "server/rooms/chat_limits.hpp"
#include "server/rooms/forwarder.hpp"
#include "server/rooms/journal.hpp"
#include "server/rooms/room.hpp"

namespace tanbo_server::server {

class Lobby;

struct ClientLimits {
  double rate_burst = 20;             // token bucket capacity, in messages
  double rate_per_second = 10;        // refill
  int rate_strikes = 50;              // rate_limited answers before close 1008
  double bot_rate_burst = 20;         // the same two for a bot's connection (docs/bots-write.md)
  double bot_rate_per_second = 4;     // ...its refill
  int max_rooms = 8;                  // unfinished rooms one identity may have created
  int rooms_per_address = 16;         // ... and the identities of one address together
  std::size_t max_frame = 64 * 1024;  // larger: too_large, then close 1009
};

// A connection's token bucket (docs/protocol.md, "Limits"): every message spends a token, and a
// move the room accepts gives its token back, so a player moving as fast as the server answers
// is never limited while a flood of anything else is. credit() may come from any thread (the
// room's strand, or another node's relay); take() only from the connection's.
class RateBucket {
 public:
  using Clock = std::chrono::steady_clock;
  RateBucket(double burst, double per_second)
      : burst_(burst), per_second_(per_second), tokens_(burst) {}
  bool take(Clock::time_point now);
  void credit() { credits_.fetch_add(1, std::memory_order_relaxed); }
  // After a refused take(): the milliseconds until the next message is taken (none: no refill).
  std::optional<std::int64_t> retry_ms() const;
  void reset(double burst, double per_second);  // from the connection's strand, like take()

 private:
  double burst_, per_second_, tokens_;
  Clock::time_point refilled_ = Clock::now();
  std::atomic<int> credits_{0};
};

// What every Client shares.
struct Services {
  std::optional<RoomsExecutor> rooms_executor;  // rooms and the lobby run their strands here
  std::shared_ptr<Lobby> lobby;
  std::shared_ptr<Identities> identities;
  std::shared_ptr<RoomJournal> journal;
  RoomSettings room;
  ClientLimits limits;
  std::string server_name;
  std::string node;                                 // this node's id in a cluster; empty alone
  std::shared_ptr<Forwarder> forwarder;             // a cluster's: rooms other nodes run
  std::shared_ptr<GuestLimit> guests;               // new identities per address; null: no limit
  std::shared_ptr<pairing::Pools> pools;            // Play now
  std::shared_ptr<pairing::Challenges> challenges;  // presence and direct challenges
  std::shared_ptr<accounts::Accounts> accounts;     // null: this server keeps no accounts
  std::shared_ptr<ChatLimits> chat = std::make_shared<ChatLimits>();  // per identity and address
  bool ranked_requires_account = false;                               // --ranked-requires-account
  // A cluster's: the other nodes close the identity's connections (its tokens were revoked).
  std::function<void(const std::string& identity)> tell_revoked;
  // A cluster's: `frame` to the identity's connections on the other nodes it is connected to
  // (`open_only`: those taking challenges), but connection `except`.
  using TellIdentity = std::function<void(const std::string& identity, const protocol::Frame& frame,
                                          bool open_only, const WsPeer::Origin& except)>;
  TellIdentity tell_identity;
  // Makes a room whose seats are all taken (a pairing, an accepted challenge): its id.
  std::function<std::string(const pairing::NewRoom&)> make_room;
  // Set when the server stops: requests are refused from then on. Shared by the copies.
  std::shared_ptr<std::atomic<bool>> stopping = std::make_shared<std::atomic<bool>>(false);
};

class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(std::uint64_t peer_id, std::shared_ptr<Services> services);
  // A connection another node of the cluster forwards: `who` said hello there, and its token
  // buckets are there too: `credit` gives an accepted move's token back to it, `chat_credit` a
  // refused chat line's.
  Client(std::uint64_t peer_id, std::shared_ptr<Services> services, Identity who,
         std::function<void()> credit, std::function<void()> chat_credit = {});
  // The peer is held only for the call: a connection's lifetime is its session's business.
  void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text);
  void on_close();
  // A move of this connection that another node's room accepted: its token comes back.
  void credit() { bucket_->credit(); }
  // Any thread: a chat line of this connection that another node's room refused: the chat's
  // buckets here give back what it took.
  void chat_credit();
  // The connection, for the work that reaches this Client from elsewhere (below).
  void attach(std::weak_ptr<WsPeer> peer) { self_peer_ = std::move(peer); }
  // Any thread: a seek or challenge of this connection became `room`, where it holds `seat`:
  // `paired`, then as a join (joined, state). Runs on the connection's strand.
  void paired(std::string seek, std::string challenge, std::string room, engine::Seat seat);
  // Any thread: a push to this connection.
  void push(const protocol::Json& j) const;
  void push(const protocol::Frame& frame) const;
  // `frame` to the connections of `identity` here (`open_only`: those taking challenges), but
  // connection `except_peer` (0: none).
  static void tell_here(const pairing::Challenges& challenges, const std::string& identity,
                        const protocol::Frame& frame, bool open_only, std::uint64_t except_peer);
  const std::optional<Identity>& identity() const { return identity_; }
  // Any thread: moderation changed this connection's identity (a ban closes it).
  void restand(Standing s);
  // Any thread: this connection's token was revoked (a logout or a password change elsewhere).
  void revoked();
  // Whether this connection said hello with the token of this hash.
  bool holds(const std::string& token_hash) const;
  // A forwarded connection's standing, as its own node sent it with the request.
  void use_standing(Standing s) { standing_ = std::move(s); }
  const Standing& standing() const { return standing_; }

 private:
  void reply(const protocol::Json& j) const;
  void tell(const std::string& identity, const protocol::Json& frame, bool open_only,
            bool but_this);
  std::optional<pairing::OpenChallenge> answered_here(const std::string& challenge, bool as_target,
                                                      const protocol::Id& re);
  void refuse(protocol::Error e);
  void refuse(protocol::ErrorCode code, std::string message, const protocol::Id& re);
  std::shared_ptr<Room> room(const std::string& id, const protocol::Id& re);

  void on(const protocol::Hello& m, const protocol::Id& re);
  void on(const protocol::ListGames& m, const protocol::Id& re);
  void on(const protocol::ListRooms& m, const protocol::Id& re);
  void on(const protocol::WatchLobby& m, const protocol::Id& re);
  void on(const protocol::UnwatchLobby& m, const protocol::Id& re);
  void on(const protocol::Create& m, const protocol::Id& re);
  void on(const protocol::Join& m, const protocol::Id& re);
  void on(const protocol::Act& m, const protocol::Id& re);
  void on(const protocol::Resign& m, const protocol::Id& re);
  void on(const protocol::Rematch& m, const protocol::Id& re);
  void on(const protocol::Leave& m, const protocol::Id& re);
  void on(const protocol::Resume& m, const protocol::Id& re);
  void on(const protocol::FillCpu& m, const protocol::Id& re);
  void on(const protocol::Ping& m, const protocol::Id& re);
  void on(const protocol::MyGames& m, const protocol::Id& re);
  void on(const protocol::Seek& m, const protocol::Id& re);
  void on(const protocol::Unseek& m, const protocol::Id& re);
  void on(const protocol::Challenge& m, const protocol::Id& re);
  void on(const protocol::Accept& m, const protocol::Id& re);
  void on(const protocol::Decline& m, const protocol::Id& re);
  void on(const protocol::Cancel& m, const protocol::Id& re);
  void on(const protocol::Challenges& m, const protocol::Id& re);
  // Chat (client_chat.cpp).
  void on(const protocol::Say& m, const protocol::Id& re);
  void on(const protocol::Mute& m, const protocol::Id& re);
  void on(const protocol::Unmute& m, const protocol::Id& re);
  void on(const protocol::Report& m, const protocol::Id& re);
  void on(const protocol::SpectatorChat& m, const protocol::Id& re);
  // Accounts (client_account.cpp).
  void on(const protocol::Claim& m, const protocol::Id& re);
  void on(const protocol::Logout& m, const protocol::Id& re);
  void on(const protocol::ChangePassword& m, const protocol::Id& re);
  void on(const protocol::BecomeBot& m, const protocol::Id& re);
  // client_bots.cpp: a bot's flag, limit and metric; where it may seek, whom it may meet.
  void became_bot();
  bool is_bot();
  bool may_seek_pool(const protocol::GameTerms& terms, const protocol::Id& re);
  bool may_meet(const std::optional<Identity>& other, const protocol::Id& re);
  void log_in(const protocol::Hello& m, const protocol::Id& re);
  // The end of every hello: standing, presence, welcome.
  void welcome(Identity who, std::string token, bool returning, const protocol::Id& re);
  void refuse(const accounts::Answer& a, const protocol::Id& re);
  // Runs `then` on the connection's strand with the Accounts' answer.
  accounts::Done on_answer(std::function<void(Client&, accounts::Answer)> then);
  // This node's other connections of the identity, whose tokens were revoked, are closed.
  void close_others();
  // Names chosen (client_names.cpp). A name that looks like one the server gives is refused
  // bad_name, one that looks like the account of an identity other than `except` (the chooser;
  // empty for a new guest) name_reserved; `field` names the message's field. False once refused.
  bool may_choose(std::string_view field, const std::string& name, const std::string& except,
                  const protocol::Id& re);
  bool not_reserved(std::string_view field, const std::string& name, const protocol::Id& re);
  void refuse_lookalike(std::string_view field, const protocol::Id& re);
  // A claim's username, and the display name it makes an account holder's: false once refused.
  bool may_claim(const std::string& username, const protocol::Id& re);
  // Ranked play needs an account here (--ranked-requires-account): false, refused, when it does.
  bool may_rank(bool ranked, const protocol::Id& re);
  void mute(const std::string& player, bool on, const protocol::Id& re);
  std::function<void(bool)> reply_after(std::size_t count, const protocol::Id& re);
  // The terms normalized, or nullopt with bad_option answered.
  std::optional<protocol::GameTerms> checked_terms(const protocol::GameTerms& t,
                                                   const protocol::Id& re);
  void refuse_options(engine::Problems problems, const protocol::Id& re);  // bad_option
  // Runs `fn` on the connection's strand with peer_ set, as a request would.
  void on_strand(std::function<void(Client&)> fn);

  void handle(std::string_view text);

  std::uint64_t peer_id_;
  std::shared_ptr<WsPeer> peer_;  // set during on_text (and on_strand) only
  std::weak_ptr<WsPeer> self_peer_;
  std::vector<std::string> seeks_;      // waiting in a pool: left on close
  Standing standing_;                   // read at hello: bans, shadow mute, mutes
  bool remote_ = false;                 // another node's connection: limited there
  std::set<std::string> remote_rooms_;  // rooms of other nodes this connection joined
  std::string address_;                 // the connection's, as the per-address limits count it
  std::function<void()> chat_credit_;   // another node's connection: a refused line's tokens
  std::string_view text_;               // the message on_text is handling, to forward as it came
  std::shared_ptr<Services> services_;
  std::optional<Identity> identity_;
  std::string token_;       // the one this connection said hello with, or was given
  std::string token_hash_;  // its hash, for ending a session (under token_mutex_: read anywhere)
  mutable std::mutex token_mutex_;
  bool logging_in_ = false;  // a hello's login is being checked
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;  // joined: told on close
  bool watching_ = false;
  bool forwarded_ = false;  // some request went to another node: it is told of the close

  using Clock = std::chrono::steady_clock;
  std::shared_ptr<RateBucket> bucket_;
  std::function<void()> credit_;  // an accepted move's token goes back to its bucket
  int strikes_ = 0;
  bool counted_bot_ = false;  // counted in the bot connections' gauge
  // Rejections are logged through a bucket of their own, so a flood cannot flood the log.
  double log_tokens_ = 5;
  Clock::time_point log_refilled_ = Clock::now();
  std::uint64_t log_dropped_ = 0;
};

}  // namespace tanbo_server::server
