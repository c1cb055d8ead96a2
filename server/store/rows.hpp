#pragma once
// The rows the store reads and writes (server/store/store.hpp): rooms and their actions,
// identities, tokens, accounts, mail tokens, login turns, chat lines and moderation. Plain values,
// compared whole by the tests.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/record.hpp"
#include "server/store/elo.hpp"

namespace tanbo_server::server::store {

using Json = engine::Json;
using Seat = engine::Seat;

// A room and its current game. A room plays game 1, then a game per rematch.
struct RoomRow {
  std::string id;
  std::string game;               // engine game id
  Json options = Json::object();  // normalized room options, `first` as given (R6)
  Json setup;                     // null: the standard set-up
  int players = 2;
  std::string seed;    // hex of the current game's seed: secret until that game ends (R1)
  std::string commit;  // seed_commitment of that seed, public from the start (R1)
  bool ranked = false;
  Json timer = Json::object();  // the room's timer settings and clocks, as the room keeps them
  std::int64_t created_at = 0;  // ms since the Unix epoch; also game 1's start
  Seat first = 0;               // the seat that moves first in the current game
  // True when the current game's first seat was drawn from its seed (R5), so its record says
  // first: "random" and a replay draws it again. create_room sets it from options.first.
  bool first_drawn = false;
  std::vector<std::string> seats;  // identity per seat, "" while free; players entries
  int game_no = 1;                 // the current game

  friend bool operator==(const RoomRow&, const RoomRow&) = default;
};

struct LoggedAction {
  std::int64_t version = 0;
  Seat seat = engine::kNoSeat;
  Json action;            // the action JSON as the game gave it, or "resign" (R3)
  std::int64_t at = 0;    // ms since the Unix epoch when it was logged (0: logged before schema 3)
  Json clocks = nullptr;  // a game clock's remaining ms per seat after it; null: none
  std::string by = {};    // why the computer chose it (append_action's `by`); empty: a person
  friend bool operator==(const LoggedAction&, const LoggedAction&) = default;
};

struct LoadedRoom {
  RoomRow row;
  std::vector<LoggedAction> actions;  // the current game's, in version order
  std::int64_t version = 0;           // the room's last action version (0: none yet)
  std::int64_t started_at = 0;        // ms since the Unix epoch: the current game's start
  std::int64_t finished_at = 0;       // ms since the Unix epoch: its end; 0 while it is played
  // A finished game's stored result, and its ratings as finish_game tells them (null: unrated).
  Json result = nullptr;
  Json ratings = nullptr;
  std::int64_t epoch = 0;  // the room's owner epoch (take_room)

  // The current game's record (R2), ready for engine::replay. The seed in the row was checked
  // when the room was loaded.
  engine::Record record() const;
  friend bool operator==(const LoadedRoom&, const LoadedRoom&) = default;
};

struct Identity {
  std::string id;
  std::string name;
  std::string username = {};  // its account's; empty for a guest
  bool bot = false;           // the account is a bot (docs/bots-write.md)
  bool play_bots = false;     // a person who takes challenges from bots and may challenge them
  friend bool operator==(const Identity&, const Identity&) = default;
};

// A token as the store keeps it: its SHA-256, never the token.
struct Token {
  std::string hash;
  std::string identity;
  std::int64_t created_at = 0;    // ms since the Unix epoch (0 for a guest's first before schema 7)
  std::int64_t last_used_at = 0;  // the last hello or request with it, to the touch (identities)
  std::string agent;              // the client that logged in with it (its User-Agent)
  std::string name = {};          // a personal access token's; empty for a session's
  friend bool operator==(const Token&, const Token&) = default;
};

// A claimed identity. The password hash is libsodium's crypto_pwhash_str form: algorithm,
// parameters, salt and hash in one string, so that each hash says how it was made.
struct Account {
  std::string identity;
  std::string username;  // as claimed, in NFC
  std::string password_hash;
  std::int64_t created_at = 0;       // ms since the Unix epoch
  int attempts = 0;                  // login attempts since the last success
  std::int64_t next_attempt_at = 0;  // ms since the Unix epoch; none is checked before it
  std::string recovery_hash = {};    // SHA-256 of the one-time recovery code, hex; empty: none
  std::string mail = {};             // its confirmed mail address, normalised; empty: none
  friend bool operator==(const Account&, const Account&) = default;
};

// A token sent by mail, as the store keeps it: its SHA-256, never the token.
struct MailToken {
  std::string hash;
  std::string identity;
  std::string purpose;  // "confirm" (the address `mail` becomes the account's) or "reset"
  std::string mail;     // the address it was sent to
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;  // ms since the Unix epoch; used, it is 0
  friend bool operator==(const MailToken&, const MailToken&) = default;
};

// A login attempt as the account's count saw it arrive (Store::count_login_attempt).
struct LoginTurn {
  bool admitted = false;             // false: it came before next_attempt_at, and is not checked
  int attempts = 0;                  // the account's count, this attempt included when admitted
  std::int64_t next_attempt_at = 0;  // when the account's next attempt may come
  friend bool operator==(const LoginTurn&, const LoginTurn&) = default;
};

// The name an erased identity's games and lines show.
inline constexpr std::string_view kDeletedPlayer = "deleted player";

// One line of a room's chat, as stored: per channel ("players", "spectators") numbered from 1.
struct ChatLine {
  std::string channel;
  std::int64_t n = 0;
  std::string identity, name;
  std::string text;     // empty when a phrase was said
  std::string phrase;   // a canned phrase's key, or empty
  std::int64_t at = 0;  // ms since the Unix epoch
  friend bool operator==(const ChatLine&, const ChatLine&) = default;
};

// What moderation says of an identity, and whom it muted.
struct Standing {
  bool banned = false;
  std::int64_t shadow_until = 0;  // ms since the epoch; 0: not shadow-muted
  std::vector<std::string> mutes;
  friend bool operator==(const Standing&, const Standing&) = default;
};

}  // namespace tanbo_server::server::store
