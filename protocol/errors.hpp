#pragma once
// Errors are values with stable codes: clients match the code, never the message text. The one
// table below is the list; docs/protocol.md repeats it for clients.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/core/options.hpp"
#include "engine/core/refusal.hpp"

namespace tanbo_server::protocol {

enum class ErrorCode : std::uint8_t {
  bad_json,              // not JSON, not UTF-8, nested too deep
  bad_message,           // not an object, or a field missing or mistyped
  unknown_type,          // `type` names no message
  not_hello,             // the first message of a connection was not hello
  unsupported_protocol,  // hello naming a protocol version this server does not speak
  bad_token,             // hello with a token the server does not know
  no_such_room,          // the room does not exist (or no longer)
  room_full,             // join as player: no free seat
  seat_taken,            // join as player: the seat asked for is someone else's
  not_seated,            // act, resign or rematch by someone holding no seat in the room
  not_in_game,           // act or resign from a seat that has left the game (resigned, or placed)
  not_your_turn,         // act while another seat must decide
  stale_version,         // act naming a version other than the room's
  illegal_action,        // act with an action not in the legal list
  game_over,             // act or resign after the game finished
  not_finished,          // rematch before the game finished
  bad_option,            // create with a bad game, player count, option or set-up
  too_many_rooms,        // create beyond the per-identity or per-address limit
  too_many_guests,       // hello making a new identity beyond the per-address limit
  bad_name,              // a display name breaking the name rule
  name_reserved,         // a chosen name that is an account's, or looks like one
  already_seeking,       // seek in a pool where this identity already waits
  no_such_seek,          // unseek of a seek that is not (or no longer) waiting
  no_such_player,        // challenge naming no identity
  player_offline,        // challenge to an identity with no connection now
  challenges_refused,    // challenge to someone who takes none
  no_such_challenge,     // accept, decline or cancel of a challenge that is not (or no longer) open
  bad_text,              // a chat line breaking the chat rule
  chat_closed,           // the spectators' channel of this room is closed
  not_your_channel,      // say in a channel this connection may not write
  chat_rate_limited,     // chat lines faster than the chat limit; this one was dropped
  chat_repeated,         // the same line again, so soon
  banned,                // hello of a banned identity
  bad_login,             // a login with a wrong username or password
  login_locked,          // a login after too many failed ones, for the account or the address
  username_taken,        // claim of a username another account has (compared case-folded)
  weak_password,         // a new password breaking the password rule
  no_account,            // logout or change_password of a guest
  account_required,      // ranked play where the server asks for an account
  already_rated,         // become_bot of an account that has played a rated game
  bots_refused,          // a challenge between a bot and a person who does not play bots
  bot_pools_only,        // a bot's seek of a pool for people
  bots_only,             // a person's seek of a pool for bots
  accounts_unavailable,  // the accounts' store failed or is stopping
  rate_limited,          // too many messages; the message was dropped
  store_unavailable,     // the room cannot store now (its database fails): nothing changed
  too_large,             // frame over the size limit
  unknown_outcome,       // the request may or may not have taken effect: resume to see
  room_moved,            // the room's node is gone, or another node runs it now: nothing changed
  internal,              // the server failed; the room is unchanged
};

struct ErrorInfo {
  ErrorCode code;
  std::string_view name;
  std::string_view meaning;
};

inline constexpr std::array<ErrorInfo, 50> kErrors = {{
    {ErrorCode::bad_json, "bad_json", "the frame is not valid JSON (or not UTF-8, or too deep)"},
    {ErrorCode::bad_message, "bad_message", "not an object, or a field is missing or mistyped"},
    {ErrorCode::unknown_type, "unknown_type", "the type names no client message"},
    {ErrorCode::not_hello, "not_hello", "the first message of a connection must be hello"},
    {ErrorCode::unsupported_protocol, "unsupported_protocol",
     "this server does not speak the protocol version named"},
    {ErrorCode::bad_token, "bad_token", "the token is not known to this server"},
    {ErrorCode::no_such_room, "no_such_room", "no room has this id"},
    {ErrorCode::room_full, "room_full", "every seat of the room is taken"},
    {ErrorCode::seat_taken, "seat_taken", "the seat asked for is held by another player"},
    {ErrorCode::not_seated, "not_seated", "this connection holds no seat in the room"},
    {ErrorCode::not_in_game, "not_in_game", "the seat has left the game"},
    {ErrorCode::not_your_turn, "not_your_turn", "another seat must decide"},
    {ErrorCode::stale_version, "stale_version", "the version given is not the room's"},
    {ErrorCode::illegal_action, "illegal_action", "the action is not in the legal list"},
    {ErrorCode::game_over, "game_over", "the game has finished"},
    {ErrorCode::not_finished, "not_finished", "a rematch needs a finished game"},
    {ErrorCode::bad_option, "bad_option", "a game, player count, option or set-up was refused"},
    {ErrorCode::too_many_rooms, "too_many_rooms", "this identity has too many open rooms"},
    {ErrorCode::too_many_guests, "too_many_guests", "too many new identities from this address"},
    {ErrorCode::bad_name, "bad_name", "the name breaks the name rule"},
    {ErrorCode::name_reserved, "name_reserved", "this name is an account's, or looks like one"},
    {ErrorCode::already_seeking, "already_seeking", "this identity already waits in this pool"},
    {ErrorCode::no_such_seek, "no_such_seek", "no such seek is waiting"},
    {ErrorCode::no_such_player, "no_such_player", "no identity has this id"},
    {ErrorCode::player_offline, "player_offline", "the player has no connection now"},
    {ErrorCode::challenges_refused, "challenges_refused", "the player takes no challenges"},
    {ErrorCode::no_such_challenge, "no_such_challenge", "no such challenge is open"},
    {ErrorCode::bad_text, "bad_text", "the chat line breaks the chat rule"},
    {ErrorCode::chat_closed, "chat_closed", "the spectators' channel is closed"},
    {ErrorCode::not_your_channel, "not_your_channel", "this connection may not write there"},
    {ErrorCode::chat_rate_limited, "chat_rate_limited",
     "too many chat lines; this one was dropped"},
    {ErrorCode::chat_repeated, "chat_repeated", "the same line again, too soon"},
    {ErrorCode::banned, "banned", "this identity is banned from the server"},
    {ErrorCode::bad_login, "bad_login", "wrong username or password"},
    {ErrorCode::login_locked, "login_locked", "too many failed logins; try again later"},
    {ErrorCode::username_taken, "username_taken", "another account has this username"},
    {ErrorCode::weak_password, "weak_password", "the new password breaks the password rule"},
    {ErrorCode::no_account, "no_account", "this identity is a guest, with no account"},
    {ErrorCode::account_required, "account_required", "ranked play needs an account here"},
    {ErrorCode::already_rated, "already_rated",
     "an account that has played a rated game cannot become a bot"},
    {ErrorCode::bots_refused, "bots_refused", "that person does not play bots"},
    {ErrorCode::bot_pools_only, "bot_pools_only", "a bot seeks only in the pools for bots"},
    {ErrorCode::bots_only, "bots_only", "this pool is for bots"},
    {ErrorCode::accounts_unavailable, "accounts_unavailable",
     "accounts cannot be reached now; try again"},
    {ErrorCode::rate_limited, "rate_limited", "too many messages; this one was dropped"},
    {ErrorCode::store_unavailable, "store_unavailable",
     "the room cannot store anything now; nothing changed, try again"},
    {ErrorCode::too_large, "too_large", "the frame exceeds the size limit"},
    {ErrorCode::unknown_outcome, "unknown_outcome",
     "the server cannot tell whether this took effect; resume to see"},
    {ErrorCode::room_moved, "room_moved",
     "the room's server node is gone or another one runs it now; nothing changed, join again"},
    {ErrorCode::internal, "internal", "the server failed; nothing changed"},
}};

constexpr std::string_view to_string(ErrorCode c) { return kErrors[std::size_t(c)].name; }
// nullopt for a name not in the table.
std::optional<ErrorCode> error_code_from(std::string_view name);

// The error a referee's refusal is sent as. No default: a new refusal code must be given its
// error here (-Wswitch), and errors.cpp checks that both name it alike.
constexpr ErrorCode error_code(engine::RefusalCode c) {
  switch (c) {
    case engine::RefusalCode::game_over:
      return ErrorCode::game_over;
    case engine::RefusalCode::not_seated:
      return ErrorCode::not_seated;
    case engine::RefusalCode::not_in_game:
      return ErrorCode::not_in_game;
    case engine::RefusalCode::not_your_turn:
      return ErrorCode::not_your_turn;
    case engine::RefusalCode::illegal_action:
      return ErrorCode::illegal_action;
  }
  return ErrorCode::internal;  // not reached: every code has its case
}

// A request's `id`, echoed as `re`: absent, an integer (int64) or a short string.
using Id = std::variant<std::monostate, std::int64_t, std::string>;
inline bool has_id(const Id& id) { return !std::holds_alternative<std::monostate>(id); }
engine::Json id_json(const Id& id);  // null when absent

struct Error {
  ErrorCode code = ErrorCode::internal;
  std::string message;
  Id re;
  engine::Problems problems;                  // bad_option: every refused field, named
  std::optional<std::int64_t> retry_ms = {};  // rate_limited: when the next message is taken
  friend bool operator==(const Error&, const Error&) = default;
};

}  // namespace tanbo_server::protocol
