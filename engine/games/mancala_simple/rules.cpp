#include "engine/games/mancala_simple/rules.hpp"

#include <algorithm>

#include "engine/core/events.hpp"

namespace tanbo_server::engine::games::mancala_simple {
namespace {

bool side_empty(const State& s, Seat seat) { return s.side(seat) == 0; }

// {"seat":1,"hole":4}, or "store" for the hole.
void write_pit(const State& s, int pit, JsonSink& out) {
  out.begin_object();
  out.member("seat", s.seat_of(pit));
  if (s.is_store(pit))
    out.member("hole", "store");
  else
    out.member("hole", pit % kStride);
  out.end_object();
}

int best_open(const State& s) {
  for (int p = 1; p <= s.players; ++p) {
    bool taken = false;
    for (Seat t = 0; t < s.players; ++t) taken |= s.place[t] == p;
    if (!taken) return p;
  }
  return 0;
}

int worst_open(const State& s) {
  for (int p = s.players; p >= 1; --p) {
    bool taken = false;
    for (Seat t = 0; t < s.players; ++t) taken |= s.place[t] == p;
    if (!taken) return p;
  }
  return 0;
}

void give_place(State& s, Seat seat, int place, Placed how, Events* events) {
  s.place[seat] = std::uint8_t(place);
  s.placed[seat] = how;
  if (!events) return;
  events->add("place", "seat", seat, "place", place, "by", placed_name(how), "stones_left",
              how == Placed::stones_left ? std::optional(side_stones(s, seat)) : std::nullopt);
}

void leave_circuit(State& s, Seat seat) { s.circuit &= std::uint8_t(~(1u << seat)); }

// M4: the last seat left in the circuit takes the last open place and the game ends.
void place_last_left(State& s, Reason reason, Events* events) {
  const Seat last = Seat(std::countr_zero(unsigned(s.circuit)));
  give_place(s, last, best_open(s), Placed::last_left, events);
  s.reason = reason;
}

// M4 (full_ranking off): the rest are ranked by fewest stones left in their holes into the places
// still open, equal counts sharing the better place (1, 2, 2, 4).
void rank_by_stones(State& s, Events* events) {
  const int top = best_open(s);
  std::array<int, kMaxPlayers> left{};
  for (Seat t = 0; t < s.players; ++t) left[t] = side_stones(s, t);
  std::array<int, kMaxPlayers> place{};
  for (Seat t = 0; t < s.players; ++t) {
    if (!s.in_circuit(t)) continue;
    place[t] = top;
    for (Seat u = 0; u < s.players; ++u) place[t] += s.in_circuit(u) && left[u] < left[t];
  }
  for (Seat t = 0; t < s.players; ++t)
    if (s.in_circuit(t)) give_place(s, t, place[t], Placed::stones_left, events);
  s.reason = Reason::finished;
}

// M4: the finisher takes the best open place and leaves the circuit with their store.
void finish(State& s, Seat mover, Events* events) {
  give_place(s, mover, best_open(s), Placed::finished, events);
  leave_circuit(s, mover);
  if (s.seats_in_circuit() == 1) return place_last_left(s, Reason::finished, events);
  if (!s.full_ranking) return rank_by_stones(s, events);  // M4: stop at the first finisher
  s.to_move = std::uint8_t(next_in_circuit(s, mover));    // M4: the next seat still in the circuit
}

// Event builders stay out of line: the hot path only tests the sink.
[[gnu::noinline]] void note_sow(const State& s, Seat mover, int hole, int stones, Events* events) {
  events->add("sow", "seat", mover, "hole", hole, "stones", stones, "pits", [&](JsonSink& out) {
    out.begin_array();
    for (int i = 0, at = s.pit(mover, hole); i < stones; ++i)
      write_pit(s, at = next_pit(s, at), out);
    out.end_array();
  });
}

[[gnu::noinline]] void note_extra_move(Seat mover, Events* events) {
  events->add("extra_move", "seat", mover);
}

// M3: take every stone of the hole and sow one per pit from the next pit on, through every store
// in the circuit; a lap passes the origin too. Returns the pit of the last stone. A seat's run of
// pits is filled with one addition (see Block); the mover's block is read and written whole, as a
// byte store into a word about to be read would stall the load.
int sow(State& s, Seat mover, int hole, Events* events) {
  Block own = s.block(mover);
  int stones = int(own >> 8 * hole & 0xff);
  if (events) note_sow(s, mover, hole, stones, events);
  own &= ~(Block(0xff) << 8 * hole);
  const int width = s.holes + 1;  // pits per seat, the store included
  const int lap = s.seats_in_circuit() * width;
  if (stones >= lap) {
    // Whole laps put the same count in every pit of the circuit, the emptied origin included.
    const int laps = stones / lap;
    stones -= laps * lap;
    own += Block(laps) * kRuns[width];
    for (Seat t = 0; t < s.players; ++t)
      if (t != mover && s.in_circuit(t)) s.set_block(t, s.block(t) + Block(laps) * kRuns[width]);
    if (stones == 0) return s.set_block(mover, own), s.pit(mover, hole);
  }
  int n = std::min(stones, width - (hole + 1));
  s.set_block(mover, own + (kRuns[n] << 8 * (hole + 1)));
  stones -= n;
  if (stones == 0) return s.pit(mover, hole + n);
  for (Seat seat = next_in_circuit(s, mover);; seat = next_in_circuit(s, seat)) {
    n = std::min(stones, width);
    s.set_block(seat, s.block(seat) + kRuns[n]);
    stones -= n;
    if (stones == 0) return s.pit(seat, n - 1);
  }
}

}  // namespace

int effective_holes(int players, int requested) {
  if (requested == 7 && players == 2) return 7;
  if (requested == 4 && players >= 3) return 4;
  return 6;
}

State setup(int players, int holes, int stones, bool full_ranking, Seat first) {
  State s;
  s.players = std::uint8_t(players);
  s.holes = std::uint8_t(effective_holes(players, holes));
  s.stones = std::uint8_t(stones);
  s.full_ranking = full_ranking;
  s.to_move = std::uint8_t(first);
  s.circuit = std::uint8_t((1u << players) - 1);
  for (Seat t = 0; t < players; ++t)
    for (int h = 0; h < s.holes; ++h) s.pits[s.pit(t, h)] = std::uint8_t(stones);
  return s;
}

Seat next_in_circuit(const State& s, Seat from) {
  Seat t = from;
  do t = t + 1 == s.players ? 0 : t + 1;
  while (!s.in_circuit(t));
  return t;
}

int next_pit(const State& s, int pit) {
  return s.is_store(pit) ? s.pit(next_in_circuit(s, s.seat_of(pit)), 0) : pit + 1;
}

int side_stones(const State& s, Seat seat) {
  int n = 0;
  for (int h = 0; h < s.holes; ++h) n += s.hole(seat, h);
  return n;
}

void play(State& s, int hole, Events* events) {
  const Seat mover = s.to_move;
  const int last = sow(s, mover, hole, events);
  // M3: finishing is checked right after the sowing, before any extra move.
  if (side_empty(s, mover)) return finish(s, mover, events);
  // M3: a last stone in any store gives the same player another move.
  if (s.is_store(last)) {
    if (events) note_extra_move(mover, events);
    return;
  }
  s.to_move = std::uint8_t(next_in_circuit(s, mover));
}

void resign(State& s, Seat seat, Events* events) {
  if (s.over() || s.place[seat]) return;
  // M5: the worst open place, so resignations stack from the bottom.
  give_place(s, seat, worst_open(s), Placed::resigned, events);
  leave_circuit(s, seat);
  if (s.seats_in_circuit() == 1) return place_last_left(s, Reason::resigned, events);
  if (s.to_move == seat) s.to_move = std::uint8_t(next_in_circuit(s, seat));  // M4
}

std::string invariant_violation(const State& s) {
  if (s.players < 2 || s.players > kMaxPlayers) return "players out of range";
  if (s.holes != effective_holes(s.players, s.holes)) return "holes not allowed for the players";
  if (s.stones != 3 && s.stones != 4) return "stones per hole not 3 or 4";
  int sum = 0;
  for (int i = 0; i < kPits; ++i) {
    const bool used = s.seat_of(i) < s.players && i % kStride <= s.holes;
    if (!used && s.pits[i]) return "stones in pit " + std::to_string(i) + ", not on the board";
    sum += s.pits[i];
  }
  if (sum != s.total_stones())
    return "stones not conserved: " + std::to_string(sum) +
           " != " + std::to_string(s.total_stones());
  if (s.circuit >> s.players) return "circuit names a seat not playing";
  for (Seat t = 0; t < s.players; ++t) {
    if ((s.place[t] == 0) != (s.placed[t] == Placed::open)) return "place and placed disagree";
    if (s.place[t] > s.players) return "place out of range";
    if (s.placed[t] == Placed::finished && !side_empty(s, t)) return "a finisher has stones left";
  }
  if (!s.over()) {
    if (s.seats_in_circuit() < 2) return "fewer than 2 seats in play";
    if (!s.in_circuit(s.to_move)) return "the mover is not in the circuit";
    if (side_empty(s, s.to_move)) return "the mover has no stone to sow";
    for (Seat t = 0; t < s.players; ++t) {
      if (s.in_circuit(t) == (s.place[t] != 0)) return "a seat in the circuit has a place";
      for (Seat u = 0; u < t; ++u)
        if (s.place[t] && s.place[t] == s.place[u]) return "a place given twice during play";
    }
    return {};
  }
  // Places follow competition ranking: a seat's place is 1 + the seats strictly before it.
  for (Seat t = 0; t < s.players; ++t) {
    int before = 0;
    for (Seat u = 0; u < s.players; ++u) before += s.place[u] < s.place[t];
    if (s.place[t] != 1 + before) return "places are not a ranking";
  }
  return {};
}

}  // namespace tanbo_server::engine::games::mancala_simple
