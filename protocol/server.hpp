#pragma once
// Server messages: one small builder per message, each giving the JSON that
// protocol/schema/server-<type>.json describes. Every request gets exactly one reply, which
// carries the request's id as `re` (null when it had none); a push (lobby, state) has no `re`.
//
// State and legal: a room serializes its `state` once per version and shares that buffer with every
// player and spectator (Frame). The seat that must decide gets the same text with its `legal`
// list spliced in before the closing brace (with_legal): one copy of the buffer, no second
// serialization, and every client reads a single self-contained message.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"
#include "protocol/client.hpp"
#include "protocol/errors.hpp"
#include "protocol/limits.hpp"

namespace tanbo_server::engine {
class Match;
}  // namespace tanbo_server::engine

namespace tanbo_server::protocol {

using Frame = std::shared_ptr<const std::string>;

enum class RoomStatus : std::uint8_t { waiting, playing, finished };
std::string_view to_string(RoomStatus s);

struct Player {
  std::string id;
  std::string name;
  bool account = false;  // the identity holds an account: "account": true (a guest: absent)
  bool bot = false;      // the account is a bot: "bot": true (otherwise absent)
  friend bool operator==(const Player&, const Player&) = default;
};

struct SeatView {
  Seat seat = 0;
  std::optional<Player> player;  // absent: a free seat (or a CPU seat)
  bool connected = false;
  bool cpu = false;  // a CPU plays the seat: from creation, or standing in (takeover)
  std::optional<CpuLevel> level;
  friend bool operator==(const SeatView&, const SeatView&) = default;
};

// A Play now pool as the lobby lists it: its terms and how many wait in it.
struct PoolSummary {
  GameTerms terms;  // options normalized, players given
  int waiting = 0;
  friend bool operator==(const PoolSummary&, const PoolSummary&) = default;
};
Json terms_json(const GameTerms& t);
Json pool_json(const PoolSummary& p);

// A room as the lobby lists it.
struct RoomSummary {
  std::string room;
  std::string game;
  Json options = Json::object();  // normalized: every option named
  RoomStatus status = RoomStatus::waiting;
  std::vector<SeatView> seats;
  int spectators = 0;
  bool ranked = false;
  TimeControl timer;
  std::optional<Seat> to_move = {};              // playing: the seat whose decision is pending
  std::optional<std::int64_t> deadline_ms = {};  // timed and playing: when to_move's time ends
  bool spectator_chat = true;
};

// One chat line as its readers get it (`said`).
struct ChatView {
  std::string_view room;
  Channel channel = Channel::players;
  std::int64_t n = 0;
  Player from;
  std::string_view text, phrase;  // one of them empty
  std::int64_t at = 0;            // server time, Unix ms
};

// The clocks of a timed room at server time `at_ms` (Unix ms): whose time runs (kNoSeat: none)
// and when it ends; a game clock shows every seat's remaining time and its increment.
struct Clock {
  TimeControl::Kind control = TimeControl::Kind::per_decision;
  Seat seat = engine::kNoSeat;
  std::int64_t at_ms = 0;
  std::int64_t deadline_ms = 0;
  std::int64_t left_ms = 0;
  std::span<const std::int64_t> remaining;  // control clock: ms per seat, counted at at_ms
  std::int64_t increment_ms = 0;
};

// Everything a `state` message shows but the parts already serialized (StateParts); pointers and
// views only, the room owns the data.
struct StateView {
  std::string_view room;
  std::uint64_t version = 0;
  std::string_view game;
  RoomStatus status = RoomStatus::waiting;
  std::span<const SeatView> seats;
  int spectators = 0;
  const engine::Pending* pending = nullptr;  // null when nobody must decide
  const engine::Result* result = nullptr;    // finished games only
  std::string_view commit;                   // R1: SHA-256 of the seed, hex
  std::string_view seed;                     // R1: revealed once finished; empty: absent
  const Clock* clock = nullptr;
  std::span<const Seat> rematch;  // finished games: seats that asked for a rematch; empty: absent
  // With the result: the seats whose last decision the computer made for their absent player
  // (empty: absent), and what the game did to the ratings, per seat {before, after} (null or
  // absent: the game was not rated).
  std::span<const Seat> takeover;
  const Json* ratings = nullptr;
};

// One step of a room's history (for resume): the version it produced and its events.
struct Step {
  std::uint64_t version = 0;
  Json events = Json::array();
};

// A seat an identity holds, as welcome lists them.
struct SeatRef {
  std::string room;
  Seat seat = 0;
  friend bool operator==(const SeatRef&, const SeatRef&) = default;
};

// `seats`: every seat the identity holds in a room not finished (empty for a new guest);
// `mutes`: the identities whose chat lines it does not get, so any device can list them.
// `username`: the identity's account, shown as `account`; empty for a guest (no `account`).
// `protocol`: the version the connection speaks, with every version the server speaks.
Json welcome(const Id& re, const Player& player, std::string_view token, std::string_view server,
             std::span<const SeatRef> seats = {}, std::span<const std::string> mutes = {},
             std::string_view username = {}, int protocol = kProtocolVersion);
Json games(const Id& re, std::span<const engine::GameInfo* const> list);
Json room_json(const RoomSummary& r);
// The answer to `my_games`: Lobby::games_of's entries.
Json my_games(const Id& re, Json games);
// `entries`: a JSON array of room_json's objects (a cluster's lobby adds "node" to each);
// `pools`: pool_json's objects, the pools someone waits in.
Json rooms(const Id& re, Json entries, Json pools = Json::array());
// Pushed to lobby watchers, batched: rooms new or changed since the last push (room_json's
// objects, as for rooms), and rooms gone; `pools` (every pool someone waits in) when they moved.
Json lobby(Json changed, std::span<const std::string> removed, const Json* pools = nullptr);
// Play now: the seek waits in its pool.
Json seeking(const Id& re, std::string_view seek, const GameTerms& pool);
// A seek or a challenge became a room where the client holds `seat`; a joined and a state
// follow. Exactly one of seek, challenge is not empty.
Json paired(std::string_view seek, std::string_view challenge, std::string_view room, Seat seat);
// A challenge sent, to the challenger.
Json challenging(const Id& re, std::string_view challenge);
// A challenge, to the one challenged.
Json challenged(std::string_view challenge, const Player& from, const GameTerms& terms);
// A challenge that will not be played: declined, cancelled, or its challenger gone.
Json challenge_ended(std::string_view challenge, std::string_view reason);
// The creator holds `seat` from now on; a `state` follows.
Json created(const Id& re, std::string_view room, Seat seat);
// `chat`: {players?: [said...], spectators?: [said...]}, the recent lines of the channels the
// joiner reads; null: none.
Json joined(const Id& re, std::string_view room, Role role, std::optional<Seat> seat,
            const Json* chat = nullptr);
Json said(const ChatView& v);
Json unsaid(std::string_view room, Channel channel, std::int64_t n);
// The `state` message, written once as text without a tree (frames_text.cpp): what a room sends
// at every step; a tree, where one is wanted, is this text parsed. The parts are already
// serialized: `seats` by seats_text(), the game's state (empty: null, before the game starts)
// and the step's events (empty: []).
struct StateParts {
  std::string_view seats;
  std::string_view state;
  std::string_view events;
};
std::string seats_text(std::span<const SeatView> seats);
std::string state_text(const StateView& v, const StateParts& parts);
// The legal list as text, from the game's write_action: serialize(m.legal_json()) byte for byte.
std::string legal_text(const engine::Match& m);
Json left(const Id& re, std::string_view room);
// The steps after the client's version, oldest first; the room sends its current state next.
// `gap`: the room no longer holds every step after that version (steps is then empty), so the
// state that follows is all the client gets.
Json resumed(const Id& re, std::string_view room, std::uint64_t version,
             std::span<const Step> steps, bool gap = false, const Json* chat = nullptr);
Json error(const Error& e);
Json error(ErrorCode code, std::string message, const Id& re = {});
Json pong(const Id& re);
// A request accepted whose effect reaches the client as pushes (act, resign, rematch, fill_cpu,
// watch_lobby, unwatch_lobby): `room` and the room's `version` once it took effect, when they
// apply (empty room: absent). Written once, as text (frames_text.cpp): every move with an id is
// answered by one; the tree is that text parsed, for the replies that add to it.
std::string ok_text(const Id& re, std::string_view room = {},
                    std::optional<std::uint64_t> version = {});
Json ok(const Id& re, std::string_view room = {}, std::optional<std::uint64_t> version = {});
// Whether `name` is the one the server gave the new guest `id` ("Guest " and the id's four
// characters after the first): its player objects say default_name (docs/protocol.md, "Names").
bool is_default_guest_name(std::string_view id, std::string_view name);

// Compact text; invalid UTF-8 in a string (never expected) becomes U+FFFD instead of throwing.
std::string serialize(const Json& j);
Frame share(const Json& j);
// The state text for the deciding seat: `legal` (a serialized JSON array) added as last member.
// Precondition: state_text is a state_text() (a non-empty object).
std::string with_legal(std::string_view state_text, std::string_view legal_text);

// Every server message type.
std::vector<std::string_view> server_types();

}  // namespace tanbo_server::protocol
