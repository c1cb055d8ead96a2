// The turn of Tanbo, phase by phase: who decides what, and what follows each step.
#include <algorithm>

#include "engine/core/events.hpp"
#include "engine/games/tanbo/codes.hpp"
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {
namespace {

int farmer_paddy(const Ring& ring) {
  for (int p = 0; p < kPaddies; ++p)
    if (ring[p].n[Farmer]) return p;
  return -1;
}

}  // namespace

std::unique_ptr<TanboGame> TanboGame::from_setup(const State& setup, const Options& options) {
  auto game = std::make_unique<TanboGame>(setup, options);
  game->begin_play(nullptr);
  return game;
}

Status TanboGame::status() const {
  if (s_.phase == Phase::place_farmer) return Status::setup;
  return s_.phase == Phase::over ? Status::finished : Status::playing;
}

Pending TanboGame::pending() const {
  switch (s_.phase) {
    case Phase::place_farmer:  // T1: seat 0 first
      return {farmer_paddy(s_.ring[0]) < 0 ? 0 : 1, "place_farmer"};
    case Phase::sow:
      return {s_.mover, "sow"};
    case Phase::harvest:
      return {s_.mover, "harvest"};
    case Phase::rest:
      return {s_.mover, "rest"};
    case Phase::swap:
      return {opponent(s_.mover), "swap"};  // T4 E: the opponent decides
    case Phase::trim:
      return {s_.mover, "trim"};
    case Phase::over:
      break;
  }
  return {kNoSeat, ""};
}

Result TanboGame::result() const {
  Result r;
  r.places = s_.winner == kNoSeat
                 ? std::vector<int>{1, 1}
                 : std::vector<int>{s_.winner == 0 ? 1 : 2, s_.winner == 1 ? 1 : 2};
  r.reason = reason_name(s_.reason);
  return r;
}

void TanboGame::apply(Action a, Rng& rng, Events* ev) {
  switch (kind_of(a)) {
    case Kind::place_farmer: {
      const Seat seat = pending().seat;
      const int paddy = field(a, 0, 4);
      s_.ring[seat][paddy].n[Farmer] = 1;
      if (ev) ev->add("farmer_placed", "seat", seat, "paddy", paddy);
      begin_play(ev);
      return;
    }
    case Kind::sow:
      sow(Token(field(a, 0, 4)), rng, ev);
      return;
    case Kind::harvest:
      harvest(rice_of(a), ev);
      s_.to_move = 0;
      if (!check_victory(ev)) after_action(Letter::A, rng, ev);
      return;
    case Kind::rest:
      give_back(rice_of(a), ev);
      s_.to_move = 0;
      if (!check_victory(ev)) after_action(Letter::D, rng, ev);
      return;
    case Kind::swap:
      swap(a, ev);
      pick_up_replay(ev);
      return;
    case Kind::trim:
      trim(trim_of(a), ev);
      ++s_.trim_paddy;
      next_trim(ev);
      return;
    case Kind::none:
      return;
  }
}

void TanboGame::resign(Seat seat, Events* ev) {
  if (s_.phase == Phase::over || seat < 0 || seat >= kSeats) return;
  finish(opponent(seat), Reason::resigned, ev);  // R3
}

// T1: a ring without its Farmer asks its owner (seat 0, then seat 1); then the first turn (R6).
void TanboGame::begin_play(Events* ev) {
  if (farmer_paddy(s_.ring[0]) < 0 || farmer_paddy(s_.ring[1]) < 0) {
    s_.phase = Phase::place_farmer;
    return;
  }
  s_.mover = s_.first;
  start_turn(ev);
}

// T2: the mover takes every token, the Farmer included, from the paddy holding their Farmer.
void TanboGame::start_turn(Events* ev) {
  ++s_.turn;
  for (int i = 0; i < s_.replays; ++i) s_.seen[i] = {};
  s_.replays = 0;
  s_.in_replay = false;
  s_.applied = 0;
  s_.gained = 0;
  s_.score_changed = false;
  Ring& ring = s_.ring[s_.mover];
  const int f = farmer_paddy(ring);
  if (ev) ev->add("turn", "seat", s_.mover, "turn", s_.turn);
  s_.hand = ring[f];
  ring[f] = {};
  s_.last = std::uint8_t(f);
  s_.cursor = std::uint8_t(next_paddy(f));
  s_.phase = Phase::sow;
  if (ev) ev->add("pick_up", "seat", s_.mover, "paddy", f, "tokens", tokens_json(s_.hand));
}

// T3: one token per paddy, clockwise from the paddy after the emptied one, wrapping round.
void TanboGame::sow(Token t, Rng& rng, Events* ev) {
  ++s_.ring[s_.mover][s_.cursor].n[t];
  --s_.hand.n[t];
  s_.last = s_.cursor;
  s_.cursor = std::uint8_t(next_paddy(s_.cursor));
  if (ev) ev->add("sow", "seat", s_.mover, "paddy", s_.last, "token", token_name(t));
  if (s_.hand.empty()) action_phase(rng, ev);
}

// T4: the counts of P name the action. T5: in a replay phase, a letter already applied ends it.
void TanboGame::action_phase(Rng& rng, Events* ev) {
  const Tokens& p = s_.ring[s_.mover][s_.last];
  const Letter l = letter_of(p);
  if (s_.in_replay && (s_.applied >> int(l) & 1)) {
    if (ev) ev->add("replay_end", "seat", s_.mover, "letter", letter_name(l));
    end_phase(ev);
    return;
  }
  if (ev)
    ev->add(Renamed{"paddy_action", "action"}, "seat", s_.mover, "paddy", s_.last, "letter",
            letter_name(l), "snakes", p.snakes(), "rice", p.rice(), "replay", s_.in_replay);
  switch (l) {
    case Letter::A:  // T9: the mover chooses the colours
      s_.to_move = std::uint8_t(p.rice() - p.snakes());
      s_.phase = Phase::harvest;
      return;
    case Letter::B:
      cultivate(rng, ev);
      after_action(Letter::B, rng, ev);
      return;
    case Letter::C:
      sow_paddy(rng, ev);
      after_action(Letter::C, rng, ev);
      return;
    case Letter::D:
      if (rest(ev)) {
        s_.phase = Phase::rest;
        return;
      }
      after_action(Letter::D, rng, ev);
      return;
    case Letter::E:
      reach_replay(ev);
      return;
  }
}

// T5: the first action phase applies one action; a replay phase goes on after A and B (unless
// replay_cascade is off); C and D end it.
void TanboGame::after_action(Letter done, Rng& rng, Events* ev) {
  if (!s_.in_replay || done == Letter::C || done == Letter::D || !o_.replay_cascade) {
    end_phase(ev);
    return;
  }
  s_.applied |= std::uint8_t(1 << int(done));
  action_phase(rng, ev);
}

// T5 guard, before the swap: a repeated (ring, P) or 64 replays this turn ends the action phase.
// Otherwise T4 E: the opponent swaps if any swap exists, then the mover replays from P.
void TanboGame::reach_replay(Events* ev) {
  const GuardKey key = guard_key(s_.ring[s_.mover], s_.last);
  const bool limit = s_.replays >= kMaxReplays;
  if (limit || std::find(s_.seen.begin(), s_.seen.begin() + s_.replays, key) !=
                   s_.seen.begin() + s_.replays) {
    if (ev) ev->add("replay_guard", "seat", s_.mover, "reason", limit ? "limit" : "repeated");
    end_phase(ev);
    return;
  }
  s_.seen[s_.replays++] = key;
  s_.in_replay = true;
  s_.applied = 0;
  if (ev) ev->add("replay", "seat", s_.mover, "paddy", s_.last, "replays", s_.replays);
  if (swap_exists(opponent(s_.mover))) {
    s_.phase = Phase::swap;
    return;
  }
  if (ev) ev->add("no_swap", "seat", opponent(s_.mover));
  pick_up_replay(ev);
}

// T4 E: the mover picks up everything in P (Farmer included) and sows it from the next paddy.
void TanboGame::pick_up_replay(Events* ev) {
  Tokens& p = s_.ring[s_.mover][s_.last];
  s_.hand = p;
  p = {};
  s_.cursor = std::uint8_t(next_paddy(s_.last));
  s_.phase = Phase::sow;
  if (ev) ev->add("pick_up", "seat", s_.mover, "paddy", s_.last, "tokens", tokens_json(s_.hand));
}

// T6: the mover's over-full paddies, one decision each, in paddy order.
void TanboGame::end_phase(Events* ev) {
  s_.in_replay = false;
  s_.applied = 0;
  s_.trim_paddy = 0;
  next_trim(ev);
}

void TanboGame::next_trim(Events* ev) {
  const Ring& ring = s_.ring[s_.mover];
  for (int p = s_.trim_paddy; p < kPaddies; ++p) {
    const int n = limit_count(ring[p], o_);
    if (n > kPaddyLimit) {
      s_.trim_paddy = std::uint8_t(p);
      s_.to_move = std::uint8_t(n - kPaddyLimit);
      s_.phase = Phase::trim;
      return;
    }
  }
  s_.trim_paddy = 0;
  s_.to_move = 0;
  end_turn(ev);
}

// T8: 2 x stall_rounds turns in a row without a score change end the game.
void TanboGame::end_turn(Events* ev) {
  s_.quiet_turns = s_.score_changed ? 0 : std::uint16_t(s_.quiet_turns + 1);
  if (s_.quiet_turns >= 2 * o_.stall_rounds) {
    const int a = s_.score(0), b = s_.score(1);
    finish(a > b ? 0 : b > a ? 1 : kNoSeat, Reason::stalled, ev);
    return;
  }
  s_.mover = opponent(s_.mover);
  start_turn(ev);
}

// T7: after every score change, at once; the reason is the first that holds.
bool TanboGame::check_victory(Events* ev) {
  s_.score_changed = true;
  const int a = s_.score(0), b = s_.score(1);
  if (a >= 25 || b >= 25)
    finish(a >= 25 ? 0 : 1, Reason::points25, ev);
  else if (a - b >= 20 || b - a >= 20)
    finish(a > b ? 0 : 1, Reason::lead20, ev);
  else if (s_.gained >= 20)
    finish(s_.mover, Reason::in_turn20, ev);
  return s_.phase == Phase::over;
}

void TanboGame::finish(Seat winner, Reason reason, Events* ev) {
  s_.phase = Phase::over;
  s_.winner = winner;
  s_.reason = reason;
  if (ev)
    ev->add(reason == Reason::stalled ? "stalled" : "victory", "seat",
            winner == kNoSeat ? Json(nullptr) : Json(winner), "reason", reason_name(reason));
}

}  // namespace tanbo_server::engine::games::tanbo
