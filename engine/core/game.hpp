#pragma once
// The interface every game implements. A Game is a value-like state machine: the pending
// decision names who must decide what, legal_actions() lists every choice they have, and apply()
// plays one of them. Actions are compact codes whose layout each game documents; clients see
// them only through action_json(), and send that JSON back verbatim (parse_action() reads it back).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/rng.hpp"

namespace tanbo_server::engine {

using Json = nlohmann::json;
using Seat = int;
inline constexpr Seat kNoSeat = -1;

// The names a game's state and events are written with, by the protocol version that gave them
// (docs/protocol-changelog.md): a client of an older version still reads the names it knows.
enum class Names : std::uint8_t { v1 = 1, v2 = 2 };
inline constexpr Names kCurrentNames = Names::v2;

enum class Status : std::uint8_t { setup, playing, finished };
std::string_view to_string(Status s);

struct Action {
  std::uint32_t code = 0;
  friend constexpr bool operator==(Action, Action) = default;
};
using ActionList = std::vector<Action>;

// Who must decide, and what kind of decision it is (a name from the game's docs/rules.md list).
struct Pending {
  Seat seat = kNoSeat;
  std::string_view decision;
};

// places[seat] is 1 for the winner; equal places are shared (a draw is every seat at 1).
struct Result {
  std::vector<int> places;
  std::string reason;
  friend bool operator==(const Result&, const Result&) = default;
};

// The events of one step (engine/core/events.hpp), added to when the pointer is not null.
class Events;

class JsonSink;

// A game's registration (engine/core/registry.hpp).
struct GameInfo;

class Game {
 public:
  virtual ~Game() = default;

  virtual std::unique_ptr<Game> clone() const = 0;
  // The registration this game was created from: what the bots and the referee know of it.
  virtual const GameInfo& info() const = 0;
  virtual int players() const = 0;
  virtual Status status() const = 0;
  // Meaningful while status() != finished.
  virtual Pending pending() const = 0;
  // Clears out and fills it with every legal action of the pending decision, without duplicates.
  virtual void legal_actions(ActionList& out) const = 0;
  // Precondition: a is one of legal_actions(). Random draws come from rng only.
  virtual void apply(Action a, Rng& rng, Events* events) = 0;
  // R3: any seat still in a game not finished may resign.
  virtual void resign(Seat seat, Events* events) = 0;
  // False once the seat has left a game that goes on without it (a mancala-simple seat that
  // resigned or finished, M4/M5): it has nothing more to decide, resign included.
  virtual bool in_game(Seat) const { return true; }
  // Meaningful once status() == finished.
  virtual Result result() const = 0;

  virtual Json action_json(Action a) const = 0;
  // The same action, value by value (engine/core/json_sink.hpp): the referee writes the legal
  // list from it without a tree. By default, the tree.
  virtual void write_action(Action a, JsonSink& out) const;
  // The code whose action_json() equals j, legal or not, when j has the shape of an action:
  // the referee compares that one action to j rather than the whole legal list. It may return a
  // code whose JSON differs from j (the referee compares), never miss one whose JSON equals it.
  virtual std::optional<Action> parse_action(const Json& j) const = 0;
  virtual Json state_json() const = 0;
  // The same state, value by value (engine/core/json_sink.hpp): the referee writes its frame
  // from it without a tree. By default, the tree.
  virtual void write_state(JsonSink& out) const;
  // Empty when every invariant of the state holds (conservation, bounds); else what broke.
  virtual std::string invariant_violation() const { return {}; }
};

}  // namespace tanbo_server::engine
