#pragma once
// Exact positions for Tanbo tests: a State built paddy by paddy (the bag and the pool hold the
// rest, as in T1), a scripted Rng that answers chosen indices, and shorthands for decisions.
#include <catch2/catch.hpp>

#include <deque>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "engine/core/events.hpp"
#include "engine/games/tanbo/codes.hpp"
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo::test {

using ::tanbo_server::engine::Action;
using ::tanbo_server::engine::ActionList;
using ::tanbo_server::engine::Events;
using ::tanbo_server::engine::Json;
using ::tanbo_server::engine::Rng;
using ::tanbo_server::engine::Seat;

// Answers the queued indices in order and remembers every n it was asked about.
class ScriptedRng final : public Rng {
 public:
  ScriptedRng(std::initializer_list<std::uint32_t> answers = {}) : answers_(answers) {}
  std::uint32_t below(std::uint32_t n) override {
    asked.push_back(n);
    if (answers_.empty()) throw std::logic_error("unscripted draw");
    const std::uint32_t a = answers_.front();
    answers_.pop_front();
    if (a >= n) throw std::logic_error("scripted index out of range");
    return a;
  }
  bool exhausted() const { return answers_.empty(); }
  std::vector<std::uint32_t> asked;

 private:
  std::deque<std::uint32_t> answers_;
};

// A paddy: snakes, yellow, black, red, Farmer.
inline Tokens P(int s = 0, int y = 0, int b = 0, int r = 0, bool f = false) {
  return Tokens{
      {std::uint8_t(s), std::uint8_t(y), std::uint8_t(b), std::uint8_t(r), std::uint8_t(f)}};
}
inline Tokens F(int s = 0, int y = 0, int b = 0, int r = 0) { return P(s, y, b, r, true); }
inline Rice H(int y = 0, int b = 0, int r = 0) {
  return Rice{{std::uint8_t(y), std::uint8_t(b), std::uint8_t(r)}};
}
// The standard ring with the Farmer in paddy `f`.
inline Ring standard_ring(int f = 0) {
  Ring r;
  for (auto& p : r) p = P(2);
  r[f].n[Farmer] = 1;
  return r;
}

// Rings and harvests as given; the bag and the snake pool hold everything else.
inline State position(const Ring& r0, const Ring& r1, Rice h0 = {}, Rice h1 = {}) {
  State s;
  s.ring = {r0, r1};
  s.harvest = {h0, h1};
  int snakes = 0;
  std::array<int, kColours> rice{};
  for (const Ring& ring : s.ring)
    for (const Tokens& p : ring) {
      snakes += p.n[Snake];
      for (int c = 0; c < kColours; ++c) rice[c] += p.n[colour_token(c)];
    }
  for (const Rice& h : s.harvest)
    for (int c = 0; c < kColours; ++c) rice[c] += h.n[c];
  s.pool = std::uint8_t(kSnakes - snakes);
  for (int c = 0; c < kColours; ++c) s.bag.n[c] = std::uint8_t(kRice[c] - rice[c]);
  return s;
}

// The game at the start of `mover`'s turn (T2 done: the Farmer's paddy is in hand).
inline TanboGame turn_of(Seat mover, const State& s, const Options& o = {}) {
  State start = s;
  start.first = mover;
  return *TanboGame::from_setup(start, o);
}

inline Action sow(Token t) { return sow_action(t); }
inline Action take(int y, int b, int r) { return rice_action(Kind::harvest, y, b, r); }
inline Action give(int y, int b, int r) { return rice_action(Kind::rest, y, b, r); }
inline Action cut(int paddy, int s, int y, int b, int r) { return trim_action(paddy, s, y, b, r); }

inline ActionList legal(const TanboGame& g) {
  ActionList out;
  g.legal_actions(out);
  return out;
}
inline bool is_legal(const TanboGame& g, Action a) {
  const ActionList l = legal(g);
  return std::find(l.begin(), l.end(), a) != l.end();
}

// Plays actions that must each be legal; the scripted rng answers the draws.
inline void play(TanboGame& g, std::initializer_list<Action> actions, Rng& rng,
                 Events* ev = nullptr) {
  for (Action a : actions) {
    INFO("action " << g.action_json(a).dump() << " in state " << g.state_json().dump());
    REQUIRE(is_legal(g, a));
    g.apply(a, rng, ev);
    REQUIRE(g.invariant_violation() == "");
  }
}
inline void play(TanboGame& g, std::initializer_list<Action> actions) {
  ScriptedRng none;
  play(g, actions, none);
}

}  // namespace tanbo_server::engine::games::tanbo::test

namespace tanbo_server::engine::games::tanbo::test {

// The whole state must be `want`; the JSON comparison shows a readable difference first.
inline void check_state(const TanboGame& g, const State& want) {
  CHECK(g.state_json() == TanboGame(want, g.options()).state_json());
  CHECK(g.state() == want);
}

// `s` as it looks once `mover` has begun a turn with the Farmer in paddy f (T2).
inline State turn_begun(State s, Seat mover, int turn) {
  s.mover = mover;
  s.turn = std::uint32_t(turn);
  int f = 0;
  while (!s.ring[mover][f].n[Farmer]) ++f;
  s.hand = s.ring[mover][f];
  s.ring[mover][f] = {};
  s.last = std::uint8_t(f);
  s.cursor = std::uint8_t(next_paddy(f));
  s.phase = Phase::sow;
  return s;
}

}  // namespace tanbo_server::engine::games::tanbo::test
