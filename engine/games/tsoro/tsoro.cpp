#include "engine/games/tsoro/tsoro.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "engine/core/events.hpp"
#include "engine/games/tsoro/notation.hpp"
#include "engine/games/tsoro/sowing.hpp"

namespace tanbo_server::engine::games::tsoro {

namespace {

constexpr Seat other(Seat s) { return 1 - s; }

int side_total(const Side& side) {
  int n = 0;
  for (std::uint8_t stones : side) n += stones;
  return n;
}

// Z8: a 64-bit digest of every hole; equal digests are confirmed hole by hole.
std::uint64_t digest(const Board& board) {
  static_assert(sizeof(Board) == 2 * kMaxHoles);
  std::uint64_t h = 0x9e3779b97f4a7c15ULL;
  const auto* bytes = reinterpret_cast<const unsigned char*>(board.data());
  for (std::size_t i = 0; i < sizeof(Board); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, bytes + i, std::min<std::size_t>(8, sizeof(Board) - i));
    h = (h ^ w) * 0xff51afd7ed558ccdULL;
    h ^= h >> 32;
  }
  return h;
}

}  // namespace

Tsoro::Tsoro(const Rules& rules, Seat first) : rules_(rules), mover_(first) {
  for (Side& side : board_) {
    // Z1: two stones in every outer hole, the inner row empty.
    for (int c = 0; c < rules_.columns; ++c) side[outer_hole(c)] = 2;
    // Z2: a single head starts with three.
    if (rules_.heads == Heads::one) side[outer_hole(rules_.columns - 1)] = 3;
  }
  total_ = stones_on_side(0) + stones_on_side(1);
  start_turn(nullptr);
}

Tsoro::Tsoro(const Rules& rules, const Board& board, Seat to_move)
    : rules_(rules), board_(board), mover_(to_move) {
  total_ = stones_on_side(0) + stones_on_side(1);
  start_turn(nullptr);
}

int Tsoro::stones_on_side(Seat s) const { return side_total(board_[s]); }

// --- The turn ---------------------------------------------------------------------------------

// Z7 first (a player with no legal move loses), then Z8 on the position it leaves standing.
void Tsoro::start_turn(Events* events) {
  phase_ = Phase::sow;
  compute_starts();
  if (!starts_) return finish(other(mover_), "immobilised");
  if (record_position()) return finish_by_count("repetition");
  if (since_capture_ >= kNoCaptureTurns) return finish_by_count("no_capture");
  if (events) events->add("turn", "seat", mover_, "turn", turn_);
}

// Z3-Z5: starts from 2 or more stones whose sowing ends; failing those, Z4 singletons.
void Tsoro::compute_starts() {
  const Side& side = board_[mover_];
  const int holes = rules_.holes();
  starts_ = 0;
  for (Hole h = 0; h < holes; ++h)
    if (side[h] >= 2 && sowing_ends(side, rules_, h)) starts_ |= HoleSet(1) << h;
  singletons_ = !starts_;
  if (!singletons_) return;
  for (Hole h = 0; h < holes; ++h)
    if (side[h] == 1 && side[h + 1 == holes ? 0 : h + 1] == 0) starts_ |= HoleSet(1) << h;
}

// Z3: sow and relay; an occupied own head stops the stones and asks the mover.
void Tsoro::sow_from(Hole from, Events* events) {
  Side& side = board_[mover_];
  const Sowing s = sow(side, rules_, from);
  if (events)
    events->add("sow", "seat", mover_, "from", hole_json(from, rules_.columns), "laps", s.laps,
                "last", hole_json(s.last, rules_.columns), "singleton", false);
  if (s.end == SowEnd::empty) return after_move(s.last, events);
  // Z5: a start or relay is offered only when its sowing ends, so an endless one never runs.
  phase_ = Phase::head;
  head_ = s.last;
  relay_ok_ = sowing_ends(side, rules_, head_);
  if (events)
    events->add("head", "seat", mover_, "at", hole_json(head_, rules_.columns), "stones",
                side[head_], "relay", relay_ok_);
}

// Z4: one stone into the empty next hole; the move ends there.
void Tsoro::move_singleton(Hole from, Events* events) {
  Side& side = board_[mover_];
  const Hole to = from + 1 == rules_.holes() ? 0 : from + 1;
  --side[from];
  ++side[to];
  if (events)
    events->add("sow", "seat", mover_, "from", hole_json(from, rules_.columns), "laps", 1, "last",
                hole_json(to, rules_.columns), "singleton", true);
  after_move(to, events);
}

// Z6: a move ending in an empty inner hole captures when the facing inner hole holds stones.
void Tsoro::after_move(Hole last, Events* events) {
  if (is_inner(last, rules_.columns)) {
    const int col = facing(column_of(last, rules_.columns), rules_.columns);
    if (board_[other(mover_)][inner_hole(col, rules_.columns)]) return capture(last, events);
  }
  end_turn(events);
}

// Z6: the facing inner hole and the outer hole behind it, a head included.
void Tsoro::capture(Hole last, Events* events) {
  Side& prey = board_[other(mover_)];
  const int col = column_of(last, rules_.columns);
  const int theirs = facing(col, rules_.columns);
  const Hole inner = inner_hole(theirs, rules_.columns), outer = outer_hole(theirs);
  if (events)
    events->add("capture", "seat", mover_, "col", col, "inner", prey[inner], "outer", prey[outer]);
  captured_[mover_] += prey[inner] + prey[outer];
  prey[inner] = prey[outer] = 0;
  captured_now_ = true;
  bonus_left_ = rules_.bonus_holes;
  next_bonus(events);
}

// Z6: non-empty opponent holes that are not heads.
HoleSet Tsoro::bonus_holes() const {
  const Side& prey = board_[other(mover_)];
  HoleSet set = 0;
  for (Hole h = 0; h < rules_.holes(); ++h)
    if (prey[h]) set |= HoleSet(1) << h;
  return set & ~rules_.head_set();
}

// Z6: one decision per pick. When every eligible hole will be taken anyway (no more than the
// picks left, and stopping early is not allowed) the order is no choice: they go at once.
void Tsoro::next_bonus(Events* events) {
  const HoleSet eligible = bonus_holes();
  if (!bonus_left_ || !eligible) return end_turn(events);
  if (!rules_.bonus_optional && std::popcount(eligible) <= bonus_left_) {
    for (HoleSet s = eligible; s; s &= s - 1) take(std::countr_zero(s), events);
    return end_turn(events);
  }
  phase_ = Phase::bonus;
}

void Tsoro::take(Hole h, Events* events) {
  Side& prey = board_[other(mover_)];
  if (events)
    events->add("bonus", "seat", mover_, "hole", across_json(h, rules_.columns), "stones", prey[h]);
  captured_[mover_] += prey[h];
  prey[h] = 0;
  --bonus_left_;
}

// Z7: a capture that empties the opponent wins at once; else the other seat starts a turn.
void Tsoro::end_turn(Events* events) {
  if (captured_now_ && !stones_on_side(other(mover_))) return finish(mover_, "captured_all");
  if (captured_now_) {
    since_capture_ = 0;
    positions_ = 0;
  } else {
    ++since_capture_;
  }
  captured_now_ = false;
  bonus_left_ = 0;
  ++turn_;
  mover_ = other(mover_);
  start_turn(events);
}

// --- The end ----------------------------------------------------------------------------------

void Tsoro::finish(Seat winner, std::string_view reason) {
  phase_ = Phase::over;
  winner_ = winner;
  reason_ = reason;
  starts_ = 0;
}

// Z8: more stones on one's own side wins; equal is a draw.
void Tsoro::finish_by_count(std::string_view reason) {
  const int a = stones_on_side(0), b = stones_on_side(1);
  finish(a > b ? 0 : b > a ? 1 : kNoSeat, reason);
}

// Z8: true when this turn-start position occurs for the third time since the last capture.
bool Tsoro::record_position() {
  const std::uint64_t h = digest(board_);
  int seen = 1;
  for (int i = positions_ - 2; i >= 0; i -= 2)  // same parity: the same seat to move
    seen += hashes_[i] == h && boards_[i] == board_;
  hashes_[positions_] = h;
  boards_[positions_] = board_;
  ++positions_;
  return seen >= 3;
}

int Tsoro::occurrences() const {
  if (!positions_) return 0;
  const Board& now = boards_[positions_ - 1];
  int seen = 0;
  for (int i = positions_ - 1; i >= 0; i -= 2) seen += boards_[i] == now;
  return seen;
}

// --- The Game interface -----------------------------------------------------------------------

Pending Tsoro::pending() const {
  constexpr std::string_view names[] = {"sow", "head", "bonus", ""};
  return {phase_ == Phase::over ? kNoSeat : mover_, names[int(phase_)]};
}

void Tsoro::legal_actions(ActionList& out) const {
  out.clear();
  switch (phase_) {
    case Phase::sow:
      for (HoleSet s = starts_; s; s &= s - 1) out.push_back(sow_action(std::countr_zero(s)));
      break;
    case Phase::head:
      // Z5: stopping is always possible; relaying only when it ends.
      if (relay_ok_) out.push_back(kHeadRelay);
      out.push_back(kHeadStop);
      break;
    case Phase::bonus:
      for (HoleSet s = bonus_holes(); s; s &= s - 1)
        out.push_back(bonus_action(std::countr_zero(s)));
      if (rules_.bonus_optional) out.push_back(kBonusStop);
      break;
    case Phase::over:
      break;
  }
}

void Tsoro::apply(Action a, Rng&, Events* events) {
  switch (kind_of(a)) {
    case Kind::sow:
      return singletons_ ? move_singleton(hole_of(a), events) : sow_from(hole_of(a), events);
    case Kind::head:
      // Z3: relay takes the head's stones on; stop ends the move (a head is an outer hole: no
      // capture).
      return a == kHeadRelay ? sow_from(head_, events) : end_turn(events);
    case Kind::bonus:
      if (a == kBonusStop) return end_turn(events);
      take(hole_of(a), events);
      return next_bonus(events);
  }
}

void Tsoro::resign(Seat seat, Events*) { finish(other(seat), "resigned"); }

Result Tsoro::result() const {
  if (winner_ == kNoSeat) return {{1, 1}, std::string(reason_)};
  Result r{{2, 2}, std::string(reason_)};
  r.places[winner_] = 1;
  return r;
}

std::string Tsoro::invariant_violation() const {
  int on_board = 0;
  for (Seat s = 0; s < 2; ++s) {
    for (Hole h = rules_.holes(); h < kMaxHoles; ++h)
      if (board_[s][h]) return "a stone outside the board";
    on_board += stones_on_side(s);
    if (captured_[s] < 0) return "negative capture count";
  }
  if (on_board + captured_[0] + captured_[1] != total_) return "stones not conserved";
  if (phase_ == Phase::sow && !starts_) return "a turn without a legal start";
  if (phase_ == Phase::head && (!contains(rules_.head_set(), head_) || board_[mover_][head_] < 2))
    return "a head decision away from an occupied head";
  if (phase_ == Phase::bonus && (!bonus_left_ || !bonus_holes())) return "an empty bonus decision";
  if (since_capture_ > kNoCaptureTurns || positions_ > kHistory)
    return "turn counters out of range";
  return {};
}

bool operator==(const Tsoro& a, const Tsoro& b) {
  if (!(a.rules_ == b.rules_ && a.board_ == b.board_ && a.captured_ == b.captured_ &&
        a.total_ == b.total_ && a.mover_ == b.mover_ && a.phase_ == b.phase_ &&
        a.starts_ == b.starts_ && a.singletons_ == b.singletons_ && a.head_ == b.head_ &&
        a.relay_ok_ == b.relay_ok_ && a.bonus_left_ == b.bonus_left_ &&
        a.captured_now_ == b.captured_now_ && a.turn_ == b.turn_ &&
        a.since_capture_ == b.since_capture_ && a.winner_ == b.winner_ && a.reason_ == b.reason_ &&
        a.positions_ == b.positions_))
    return false;
  for (int i = 0; i < a.positions_; ++i)
    if (a.boards_[i] != b.boards_[i]) return false;
  return true;
}

}  // namespace tanbo_server::engine::games::tsoro
