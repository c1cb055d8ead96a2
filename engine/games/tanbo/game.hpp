#pragma once
// Tanbo (Musoka Studio) as an engine Game. The turn reads like the rulebook: preparation (T2),
// movement one token per decision (T3), the action phase (T4) with the replay cascade (T5), the
// end phase (T6); victory is checked after every score change (T7), stalling at each turn's end
// (T8). Every choice is a decision of the player named (T9). See docs/rules/tanbo.md.
#include <memory>
#include <string>

#include "engine/core/game.hpp"
#include "engine/core/registry.hpp"
#include "engine/games/tanbo/state.hpp"

namespace tanbo_server::engine::games::tanbo {

class TanboGame final : public Game {
 public:
  // Takes the state as it is (tests build exact positions this way).
  TanboGame(const State& state, const Options& options) : s_(state), o_(options) {}
  // From a set-up (rings, bag, pool; phase place_farmer): asks for missing Farmers (T1) or
  // begins the first turn.
  static std::unique_ptr<TanboGame> from_setup(const State& setup, const Options& options);

  std::unique_ptr<Game> clone() const override { return std::make_unique<TanboGame>(*this); }
  const GameInfo& info() const override;
  int players() const override { return kSeats; }
  Status status() const override;
  Pending pending() const override;
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

  const State& state() const { return s_; }
  const Options& options() const { return o_; }

 private:
  // The turn, phase by phase (phases.cpp).
  void begin_play(Events* ev);
  void start_turn(Events* ev);
  void sow(Token t, Rng& rng, Events* ev);
  void action_phase(Rng& rng, Events* ev);
  void after_action(Letter done, Rng& rng, Events* ev);
  void reach_replay(Events* ev);
  void pick_up_replay(Events* ev);
  void end_phase(Events* ev);
  void next_trim(Events* ev);
  void end_turn(Events* ev);
  bool check_victory(Events* ev);
  void finish(Seat winner, Reason reason, Events* ev);

  // The actions (actions.cpp).
  void harvest(Rice taken, Events* ev);
  void cultivate(Rng& rng, Events* ev);
  void sow_paddy(Rng& rng, Events* ev);
  bool rest(Events* ev);
  void give_back(Rice returned, Events* ev);
  void swap(Action a, Events* ev);
  void trim(Tokens removed, Events* ev);
  int draw_into_p(int count, Rng& rng, Events* ev);
  bool swap_exists(Seat s) const;

  State s_;
  Options o_;
};

// T4: the action the counts of a paddy name (the Farmer never counts).
constexpr Letter letter_of(const Tokens& p) {
  const int s = p.snakes(), r = p.rice();
  if (s == 0 && r == 0) return Letter::D;
  if (s == 0 || r == 0) return Letter::C;
  if (r > s) return Letter::A;
  if (s > r) return Letter::B;
  return Letter::E;
}

// T6: the tokens that count toward the paddy limit.
inline int limit_count(const Tokens& p, const Options& o) {
  return p.snakes() + p.rice() + (o.farmer_counts_toward_limit ? p.n[Farmer] : 0);
}

// T5 guard key of a ring and P.
GuardKey guard_key(const Ring& ring, int p);

// Names used by JSON (json.cpp).
const char* token_name(Token t);
const char* letter_name(Letter l);
const char* reason_name(Reason r);
Json tokens_json(const Tokens& t);
Json rice_json(const Rice& r);

// Set-up and registry (setup.cpp, info.cpp).
Options options_from(const Json& options);
// Throws BadSetup naming the bad field.
State setup_from(const Json& setup);
std::unique_ptr<Game> create(const CreateArgs& args);
const GameInfo& info();
// A position still playing, seen from `seat`, for the bots (BotHooks::evaluate).
double evaluate(const Game& g, Seat seat);

}  // namespace tanbo_server::engine::games::tanbo
