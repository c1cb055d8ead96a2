#pragma once
// R2: a game is fully determined by its record: game id, options, set-up, players, seed and the
// ordered list of accepted actions (real choices only; forced ones are re-derived, R4).
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo_server::engine {

// The action JSON of a resignation in a record (R3).
inline constexpr std::string_view kResign = "resign";
// The action JSON of a seat whose time ran out (a timed room): it leaves as by resigning, and a
// game it ends is lost on time.
inline constexpr std::string_view kTimeout = "time";

struct RecordedAction {
  Seat seat = kNoSeat;
  Json action;  // as the game's action_json gives it, "resign" or "time"
  friend bool operator==(const RecordedAction&, const RecordedAction&) = default;
};

struct Record {
  std::string game;
  Json options = Json::object();
  Json setup;  // null: the standard set-up
  int players = 2;
  Seed seed{};
  std::vector<RecordedAction> actions;

  // {game, options, setup, players, seed (hex), actions:[{seat, action}]}
  Json to_json() const;
  // nullopt with error naming the bad field.
  static std::optional<Record> from_json(const Json& j, std::string& error);
};

}  // namespace tanbo_server::engine
