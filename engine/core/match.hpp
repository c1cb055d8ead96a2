#pragma once
// A Match is one game in progress with its RNG and its record: the referee's view. It checks
// every action against the legal list (sent back verbatim as JSON), applies forced decisions
// at once (R4), and keeps the events of the last step. The legal list's JSON is built when first
// asked for, not at every step. Not thread-safe (not even its const members); one owner at a
// time.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/events.hpp"
#include "engine/core/game.hpp"
#include "engine/core/record.hpp"
#include "engine/core/refusal.hpp"
#include "engine/core/registry.hpp"

namespace tanbo_server::engine {

// Why an action or a resignation was refused.
struct Refusal {
  RefusalCode code;
  std::string message;
};

class Match {
 public:
  // Starts a game from the head of a record (its actions are ignored). Null with problems set
  // when the game, players, options or set-up are bad.
  static std::unique_ptr<Match> start(const Record& head, Problems& problems);

  // Plays `action` (one element of legal_json(), verbatim) for `seat`. On success returns
  // nullopt, appends to the record and sets events(); on refusal nothing changes. `by`, when
  // not empty, names in the action's event who chose it for the seat (the server's computer).
  std::optional<Refusal> act(Seat seat, const Json& action, std::string_view by = {});
  std::optional<Refusal> resign(Seat seat);
  // The seat's time ran out: it leaves the game as by resigning (R3, M5), and the result of a
  // game that ends here gives the reason "time".
  std::optional<Refusal> time_out(Seat seat);
  // The game's result, with "time" for a game its last step ended by a time-out.
  Result result() const;

  const Game& game() const { return *game_; }
  const Record& record() const { return record_; }
  Seat first() const { return first_; }
  // The events of the last accepted step (creation counts as one), as JSON text.
  const Events& events() const { return events_; }
  // The pending decision's legal actions as JSON (empty when finished), built on first use.
  const Json& legal_json() const;
  // How many legal actions the pending decision has, and the i-th as legal_json() shows it,
  // without building the whole list.
  std::size_t legal_count() const { return legal_.size(); }
  const ActionList& legal() const { return legal_; }
  Json legal_action(std::size_t i) const;
  std::uint64_t draws() const { return rng_.words_drawn(); }

 private:
  Match(std::unique_ptr<Game> game, Record record, Seat first);
  // R4: apply every forced decision, then cache the next legal list. A game that ends here gets
  // end_reason, when not empty, in its `end` event.
  void settle(std::string_view end_reason = {});
  std::optional<Refusal> leave(Seat seat, std::string_view why, std::string_view recorded,
                               std::string_view end_reason = {});

  std::unique_ptr<Game> game_;
  Record record_;
  Seat first_;
  Drbg rng_;
  Events events_;
  ActionList legal_;
  mutable Json legal_json_ = Json::array();
  mutable bool legal_json_built_ = true;  // legal_json_ is legal_ as JSON
  bool ended_on_time_ = false;
};

struct Replay {
  std::unique_ptr<Match> match;  // null when the head itself was bad
  Problems problems;
  // Index of the first refused action, with the reason; npos when every action was accepted.
  std::size_t failed_at = std::string::npos;
  std::optional<Refusal> refusal;
};

// Rebuilds a game from its record. on_step (may be empty) is called after each accepted action.
Replay replay(const Record& record,
              const std::function<void(std::size_t, const Match&)>& on_step = {});

}  // namespace tanbo_server::engine
