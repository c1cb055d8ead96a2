#pragma once
// Client messages: parsed once at the edge into a closed set of small value types. parse() never
// throws: a frame is either a Request (a message with its id) or an Error value carrying the id
// when one could be read. Unknown fields are ignored; an optional field given as null is absent.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/core/game.hpp"
#include "protocol/errors.hpp"
#include "protocol/time_control.hpp"

namespace tanbo_server::protocol {

using engine::Json;
using engine::Seat;

enum class Role : std::uint8_t { player, spectator };
enum class CpuLevel : std::uint8_t { random, greedy, mcts };
std::string_view to_string(Role r);
std::string_view to_string(CpuLevel l);

// A username and password (docs/protocol.md, "Accounts"); checked by the server, not here.
struct Login {
  std::string username;
  std::string password;
  // A token of the account the device already holds: the account's waits do not apply to it.
  std::optional<std::string> token = {};
  friend bool operator==(const Login&, const Login&) = default;
};

struct Hello {
  static constexpr std::string_view kType = "hello";
  std::optional<std::string> token;  // absent: a new guest identity (or a login)
  std::optional<std::string> name;
  std::optional<Login> login = {};   // never with a token
  std::optional<int> protocol = {};  // the version the client speaks; absent: kOldestProtocol
  // A personal access token (docs/bots-write.md), in place of the token or a login.
  std::optional<std::string> access_token = {};
  friend bool operator==(const Hello&, const Hello&) = default;
};

struct ListGames {
  static constexpr std::string_view kType = "games";
  friend bool operator==(const ListGames&, const ListGames&) = default;
};

struct ListRooms {
  static constexpr std::string_view kType = "rooms";
  std::optional<std::string> game;  // absent: every game
  friend bool operator==(const ListRooms&, const ListRooms&) = default;
};

struct WatchLobby {
  static constexpr std::string_view kType = "watch_lobby";
  friend bool operator==(const WatchLobby&, const WatchLobby&) = default;
};

struct UnwatchLobby {
  static constexpr std::string_view kType = "unwatch_lobby";
  friend bool operator==(const UnwatchLobby&, const UnwatchLobby&) = default;
};

struct CpuSeat {
  Seat seat = 0;
  CpuLevel level = CpuLevel::random;
  friend bool operator==(const CpuSeat&, const CpuSeat&) = default;
};

struct Create {
  static constexpr std::string_view kType = "create";
  std::string game;
  Json options = Json::object();  // checked by the engine, not here (bad_option)
  std::optional<int> players;     // player count; absent: the game's default
  std::optional<int> v1_seats;    // the player count under version 1's name, "seats"
  bool ranked = false;
  TimeControl timer;           // protocol/time_control.hpp
  std::vector<CpuSeat> cpu;    // distinct seats
  Json setup;                  // null: the game's standard set-up
  bool spectator_chat = true;  // the spectators' channel open
  friend bool operator==(const Create&, const Create&) = default;
};

struct Join {
  static constexpr std::string_view kType = "join";
  std::string room;
  Role as = Role::spectator;
  std::optional<Seat> seat;  // players only: absent means the first free seat
  friend bool operator==(const Join&, const Join&) = default;
};

struct Act {
  static constexpr std::string_view kType = "act";
  std::string room;
  std::uint64_t version = 0;
  Json action;  // one element of the legal list, verbatim; never null
  friend bool operator==(const Act&, const Act&) = default;
};

struct Resign {
  static constexpr std::string_view kType = "resign";
  std::string room;
  friend bool operator==(const Resign&, const Resign&) = default;
};

struct Rematch {
  static constexpr std::string_view kType = "rematch";
  std::string room;
  friend bool operator==(const Rematch&, const Rematch&) = default;
};

struct Leave {
  static constexpr std::string_view kType = "leave";
  std::string room;
  friend bool operator==(const Leave&, const Leave&) = default;
};

// A room's two chat channels: its players', and its spectators'.
enum class Channel : std::uint8_t { players, spectators };
std::string_view to_string(Channel c);

struct Resume {
  static constexpr std::string_view kType = "resume";
  std::string room;
  std::uint64_t version = 0;  // the last version the client saw
  // The last chat line seen per channel (n); absent: the room's recent lines as on a join.
  std::optional<std::int64_t> chat_players, chat_spectators;
  friend bool operator==(const Resume&, const Resume&) = default;
};

// A seated player asks the computer to take every free seat, at one level; the game starts.
struct FillCpu {
  static constexpr std::string_view kType = "fill_cpu";
  std::string room;
  CpuLevel level = CpuLevel::greedy;
  friend bool operator==(const FillCpu&, const FillCpu&) = default;
};

struct Ping {
  static constexpr std::string_view kType = "ping";
  friend bool operator==(const Ping&, const Ping&) = default;
};

// The games the identity holds a seat in that are not finished, its turn or not.
struct MyGames {
  static constexpr std::string_view kType = "my_games";
  friend bool operator==(const MyGames&, const MyGames&) = default;
};

// What a game to be paired for is: the pool of Play now, or a challenge's terms.
struct GameTerms {
  std::string game;
  std::optional<int> players;     // absent: the game's default
  Json options = Json::object();  // checked by the engine (bad_option); absent ones: defaults
  TimeControl timer;
  bool ranked = false;
  bool bots = false;  // a pool for bots (seek only): bots seek there, and only there
  friend bool operator==(const GameTerms&, const GameTerms&) = default;
};

// Play now: wait in the pool of exactly these terms until paired.
struct Seek {
  static constexpr std::string_view kType = "seek";
  GameTerms terms;
  std::optional<int> cpu_after;     // seconds; absent: never play the computer instead
  CpuLevel level = CpuLevel::mcts;  // the computer's, if it comes to that
  friend bool operator==(const Seek&, const Seek&) = default;
};

struct Unseek {
  static constexpr std::string_view kType = "unseek";
  std::string seek;
  friend bool operator==(const Unseek&, const Unseek&) = default;
};

// A direct challenge to an online player.
struct Challenge {
  static constexpr std::string_view kType = "challenge";
  std::string player;  // the identity's id
  GameTerms terms;
  friend bool operator==(const Challenge&, const Challenge&) = default;
};

// The challenged player's answers, and the challenger's withdrawal.
struct Accept {
  static constexpr std::string_view kType = "accept";
  std::string challenge;
  friend bool operator==(const Accept&, const Accept&) = default;
};
struct Decline {
  static constexpr std::string_view kType = "decline";
  std::string challenge;
  friend bool operator==(const Decline&, const Decline&) = default;
};
struct Cancel {
  static constexpr std::string_view kType = "cancel";
  std::string challenge;
  friend bool operator==(const Cancel&, const Cancel&) = default;
};

// Whether this identity takes challenges at all (default: yes).
struct Challenges {
  static constexpr std::string_view kType = "challenges";
  bool open = true;
  friend bool operator==(const Challenges&, const Challenges&) = default;
};

// Chat: a line of text, or one of the canned phrases, to one channel of a room.
inline constexpr std::array<std::string_view, 6> kPhrases = {"hello",     "good_game",   "thanks",
                                                             "good_luck", "well_played", "oops"};
struct Say {
  static constexpr std::string_view kType = "say";
  std::string room;
  Channel channel = Channel::players;
  std::string text;    // NFC, the chat rule checked; empty when a phrase is said
  std::string phrase;  // one of kPhrases, or empty
  friend bool operator==(const Say&, const Say&) = default;
};
// The muting identity stops receiving that player's lines, in every room, from now on.
struct Mute {
  static constexpr std::string_view kType = "mute";
  std::string player;
  friend bool operator==(const Mute&, const Mute&) = default;
};
struct Unmute {
  static constexpr std::string_view kType = "unmute";
  std::string player;
  friend bool operator==(const Unmute&, const Unmute&) = default;
};
// For the operators: a player, in a room (or none), and why.
struct Report {
  static constexpr std::string_view kType = "report";
  std::string player;
  std::optional<std::string> room;
  std::string reason;
  friend bool operator==(const Report&, const Report&) = default;
};
// The room's creator opens or closes its spectators' channel.
struct SpectatorChat {
  static constexpr std::string_view kType = "spectator_chat";
  std::string room;
  bool open = true;
  friend bool operator==(const SpectatorChat&, const SpectatorChat&) = default;
};

// Accounts: a guest claims one; an account logs out (this token, or every one) and changes its
// password. The rules of a username and a password are the server's (docs/protocol.md).
struct Claim {
  static constexpr std::string_view kType = "claim";
  std::string username, password;
  friend bool operator==(const Claim&, const Claim&) = default;
};
struct Logout {
  static constexpr std::string_view kType = "logout";
  bool everywhere = false;
  friend bool operator==(const Logout&, const Logout&) = default;
};
// The account becomes a bot, for good (docs/bots-write.md).
struct BecomeBot {
  static constexpr std::string_view kType = "become_bot";
  friend bool operator==(const BecomeBot&, const BecomeBot&) = default;
};
struct ChangePassword {
  static constexpr std::string_view kType = "change_password";
  std::string current, password;
  friend bool operator==(const ChangePassword&, const ChangePassword&) = default;
};

using ClientMessage =
    std::variant<Hello, ListGames, ListRooms, WatchLobby, UnwatchLobby, Create, Join, Act, Resign,
                 Rematch, Leave, Resume, FillCpu, Ping, Seek, Unseek, Challenge, Accept, Decline,
                 Cancel, Challenges, Say, Mute, Unmute, Report, SpectatorChat, MyGames, Claim,
                 Logout, ChangePassword, BecomeBot>;

struct Request {
  Id id;
  ClientMessage message;
  friend bool operator==(const Request&, const Request&) = default;
};

using Parsed = std::variant<Request, Error>;

// Checks size, nesting, JSON, then the envelope and the fields of the message its type names.
Parsed parse(std::string_view frame) noexcept;
// The same from an already parsed value (the frame limits are then the caller's business).
Parsed parse_json(const Json& j) noexcept;

// Every client message type, in ClientMessage order.
std::vector<std::string_view> client_types();
std::string_view type_of(const ClientMessage& m);

// The message as a client sends it (test clients, the load generator): parse(to_json(r).dump())
// gives r back.
Json to_json(const Request& r);

}  // namespace tanbo_server::protocol
