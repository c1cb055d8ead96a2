#pragma once
// mancala-simple: the Japanese "simple mancala" for 2 to 4 players (rulings M1-M7).
// Action code: the mover's hole index, 0-based from their left; JSON {"hole": h}. The only
// decision kind is "sow". docs/rules/mancala-simple.md describes every choice and every JSON.
#include "engine/core/game.hpp"
#include "engine/core/json_object.hpp"
#include "engine/core/json_read.hpp"
#include "engine/core/json_sink.hpp"
#include "engine/core/registry.hpp"
#include "engine/games/mancala_simple/state.hpp"

namespace tanbo_server::engine::games::mancala_simple {

inline constexpr std::string_view kSow = "sow";

const GameInfo& info();
// A position still playing, seen from `seat`, for the bots (BotHooks::evaluate).
double evaluate(const Game& g, Seat seat);

class MancalaSimple final : public Game {
 public:
  // Any position whose invariant_violation() is empty; tests build positions this way.
  explicit MancalaSimple(const State& state) : s_(state) {}

  std::unique_ptr<Game> clone() const override { return std::make_unique<MancalaSimple>(*this); }
  const GameInfo& info() const override { return mancala_simple::info(); }
  int players() const override { return s_.players; }
  Status status() const override { return s_.over() ? Status::finished : Status::playing; }
  Pending pending() const override { return s_.over() ? Pending{} : Pending{s_.to_move, kSow}; }
  void legal_actions(ActionList& out) const override;
  void apply(Action a, Rng& rng, Events* events) override;
  void resign(Seat seat, Events* events) override;
  bool in_game(Seat seat) const override { return !s_.place[std::size_t(seat)]; }
  Result result() const override;

  Json action_json(Action a) const override { return action_tree(*this, a); }
  void write_action(Action a, JsonSink& out) const override;
  std::optional<Action> parse_action(const Json& j) const override {
    auto hole = int_in(member(j, "hole"), 0, 255);
    return hole ? std::optional(Action{std::uint32_t(*hole)}) : std::nullopt;
  }
  Json state_json() const override;
  void write_state(JsonSink& out) const override;
  std::string invariant_violation() const override;

  const State& state() const { return s_; }

 private:
  State s_;
};

}  // namespace tanbo_server::engine::games::mancala_simple
