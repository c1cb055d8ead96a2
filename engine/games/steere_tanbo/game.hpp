#pragma once
// steere-tanbo: Mark Steere's Tanbo, 2026 rules (rulings S1-S5, R1-R6), as an engine
// Game. One decision kind, "place"; the action code is the padded point index of board.hpp, its
// JSON {"place":"c5"}. docs/rules/steere-tanbo.md describes options, set-up, state and events.
#include <array>
#include <memory>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"
#include "engine/games/steere_tanbo/position.hpp"

namespace tanbo_server::engine::games::steere_tanbo {

const GameInfo& info();
// A position still playing, seen from `seat`, for the bots (BotHooks::evaluate).
double evaluate(const Game& g, Seat seat);

class SteereTanbo final : public Game {
 public:
  // R6: seat `first` plays Black.
  SteereTanbo(const Position& start, Seat first);

  std::unique_ptr<Game> clone() const override { return std::make_unique<SteereTanbo>(*this); }
  const GameInfo& info() const override { return steere_tanbo::info(); }
  int players() const override { return 2; }
  Status status() const override { return status_; }
  Pending pending() const override { return {seat_of_[pos_.to_move()], "place"}; }
  void legal_actions(ActionList& out) const override;
  void apply(Action a, Rng& rng, Events* events) override;
  void resign(Seat seat, Events* events) override;
  Result result() const override;

  Json action_json(Action a) const override;
  std::optional<Action> parse_action(const Json& j) const override;
  Json state_json() const override;
  void write_state(JsonSink& out) const override;
  void write_action(Action a, JsonSink& out) const override;
  std::string invariant_violation() const override;

  const Position& position() const { return pos_; }
  Seat seat_of(Color c) const { return seat_of_[c]; }
  friend bool operator==(const SteereTanbo& a, const SteereTanbo& b) {
    return a.pos_ == b.pos_ && a.seat_of_ == b.seat_of_ && a.status_ == b.status_ &&
           a.winner_ == b.winner_ && a.resigned_ == b.resigned_;
  }

 private:
  Position pos_;
  std::array<Seat, kColors> seat_of_{};
  Status status_ = Status::playing;
  Color winner_ = black;
  bool resigned_ = false;
};

}  // namespace tanbo_server::engine::games::steere_tanbo
