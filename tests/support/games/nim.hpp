#pragma once
// nim: a game the tests register (never the server's own catalogue) to show that a game plugs in
// through its registration alone. Heaps of 3, 4, 5, ... stones; two players take turns taking
// one or more stones from one heap; whoever takes the last stone wins (normal play). One decision
// kind, "take"; action code heap * 256 + count, its JSON {"heap": h, "take": n}.
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"

namespace tanbo_server::engine::games::nim {

const engine::GameInfo& info();
double evaluate(const Game& g, Seat seat);

class Nim final : public Game {
 public:
  Nim(int heaps, Seat first);

  std::unique_ptr<Game> clone() const override { return std::make_unique<Nim>(*this); }
  const GameInfo& info() const override { return nim::info(); }
  int players() const override { return 2; }
  Status status() const override { return winner_ == kNoSeat ? Status::playing : Status::finished; }
  Pending pending() const override { return {to_move_, "take"}; }
  void legal_actions(ActionList& out) const override;
  void apply(Action a, Rng& rng, Events* events) override;
  void resign(Seat seat, Events* events) override;
  Result result() const override;
  Json action_json(Action a) const override;
  std::optional<Action> parse_action(const Json& j) const override;
  Json state_json() const override;
  std::string invariant_violation() const override;

  const std::vector<int>& heaps() const { return heaps_; }

 private:
  std::vector<int> heaps_;
  Seat to_move_;
  Seat winner_ = kNoSeat;
  bool resigned_ = false;
};

}  // namespace tanbo_server::engine::games::nim
