// The five actions of phase 3 (T4), the opponent's swap and the end-phase trim (T6).
#include <algorithm>
#include <bit>

#include "engine/core/events.hpp"
#include "engine/core/json_object.hpp"
#include "engine/games/tanbo/codes.hpp"
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {

// R5: each rice is a uniform index over the bag's tokens ordered yellow, black, red. Draws into
// P as many as asked, or as the bag holds.
int TanboGame::draw_into_p(int count, Rng& rng, Events* ev) {
  Tokens& p = s_.ring[s_.mover][s_.last];
  int drawn = 0;
  for (; drawn < count; ++drawn) {
    const int total = s_.bag.total();
    if (total == 0) break;
    const int i = int(rng.below(std::uint32_t(total)));
    const int c = i < s_.bag.n[0] ? 0 : i < s_.bag.n[0] + s_.bag.n[1] ? 1 : 2;
    --s_.bag.n[c];
    ++p.n[colour_token(c)];
    if (ev) ev->add("draw", "paddy", s_.last, "colour", token_name(colour_token(c)));
  }
  return drawn;
}

// T4 A: R - S rice of the mover's chosen colours go from P to their harvest.
void TanboGame::harvest(Rice taken, Events* ev) {
  Tokens& p = s_.ring[s_.mover][s_.last];
  for (int c = 0; c < kColours; ++c) {
    p.n[colour_token(c)] -= taken.n[c];
    s_.harvest[s_.mover].n[c] += taken.n[c];
  }
  s_.gained = std::uint16_t(s_.gained + taken.points());
  if (ev)
    ev->add("harvest", "seat", s_.mover, "paddy", s_.last, "rice", rice_json(taken), "points",
            taken.points(), "score", s_.score(s_.mover));
}

// T4 B: S - R rice drawn into P, as many as the bag holds.
void TanboGame::cultivate(Rng& rng, Events* ev) {
  const Tokens& p = s_.ring[s_.mover][s_.last];
  const int wanted = p.snakes() - p.rice();
  const int drawn = draw_into_p(wanted, rng, ev);
  if (drawn < wanted && ev) ev->add("bag_short", "wanted", wanted, "drawn", drawn);
}

// T4 C: snakes to the pool, rice to the bag, the Farmer stays; only then 2 of the missing type,
// as many as the pool or the bag holds.
void TanboGame::sow_paddy(Rng& rng, Events* ev) {
  Tokens& p = s_.ring[s_.mover][s_.last];
  const bool had_snakes = p.snakes() > 0;
  if (ev) {
    Tokens cleared = p;
    cleared.n[Farmer] = 0;
    ev->add("clear", "paddy", s_.last, "tokens", tokens_json(cleared));
  }
  s_.pool = std::uint8_t(s_.pool + p.n[Snake]);
  p.n[Snake] = 0;
  for (int c = 0; c < kColours; ++c) {
    s_.bag.n[c] += p.n[colour_token(c)];
    p.n[colour_token(c)] = 0;
  }
  if (had_snakes) {
    const int drawn = draw_into_p(2, rng, ev);
    if (drawn < 2 && ev) ev->add("bag_short", "wanted", 2, "drawn", drawn);
    return;
  }
  const int added = std::min<int>(2, s_.pool);
  s_.pool = std::uint8_t(s_.pool - added);
  p.n[Snake] = std::uint8_t(p.n[Snake] + added);
  if (ev) ev->add("add_snakes", "paddy", s_.last, "count", added);
}

// T4 D: the Farmer (alone in P) moves clockwise to the next paddy holding a snake or rice; the
// mover then returns d harvested rice (all if fewer). No such paddy: the Farmer stays, nothing
// lost. True when a colour choice is pending.
bool TanboGame::rest(Events* ev) {
  Ring& ring = s_.ring[s_.mover];
  int to = s_.last, steps = 0;
  for (int d = 1, p = next_paddy(s_.last); d < kPaddies; ++d, p = next_paddy(p))
    if (ring[p].snakes() + ring[p].rice() > 0) {
      to = p, steps = d;
      break;
    }
  ring[s_.last].n[Farmer] = 0;
  ring[to].n[Farmer] = 1;
  const int lose = std::min(steps, s_.harvest[s_.mover].total());
  s_.to_move = std::uint8_t(lose);
  if (ev)
    ev->add("rest", "seat", s_.mover, "from", s_.last, "to", to, "steps", steps, "lose", lose);
  return lose > 0;
}

// T4 D: the chosen harvested rice go back to the bag.
void TanboGame::give_back(Rice returned, Events* ev) {
  for (int c = 0; c < kColours; ++c) {
    s_.harvest[s_.mover].n[c] -= returned.n[c];
    s_.bag.n[c] += returned.n[c];
  }
  if (ev)
    ev->add("return", "seat", s_.mover, "rice", rice_json(returned), "points", returned.points(),
            "score", s_.score(s_.mover));
}

// T4 E: two tokens of the opponent's ring, in two different paddies, change places.
void TanboGame::swap(Action a, Events* ev) {
  const Seat o = opponent(s_.mover);
  const int i = field(a, 0, 4), j = field(a, 8, 4);
  const Token ti = Token(field(a, 4, 4)), tj = Token(field(a, 12, 4));
  Ring& ring = s_.ring[o];
  --ring[i].n[ti], ++ring[i].n[tj];
  --ring[j].n[tj], ++ring[j].n[ti];
  if (ev)
    ev->add("swap", "seat", o, "swap",
            Json::array({object("paddy", i, "token", token_name(ti)),
                         object("paddy", j, "token", token_name(tj))}));
}

// The kinds present in a paddy, one bit per Token.
static unsigned kinds(const Tokens& t) {
  unsigned m = 0;
  for (int k = 0; k < kTokens; ++k) m |= unsigned(t.n[k] > 0) << k;
  return m;
}

// T4 E: a swap needs tokens in two different paddies; with forbid_noop_swap, of different kinds.
bool TanboGame::swap_exists(Seat s) const {
  const Ring& ring = s_.ring[s];
  for (int i = 0; i < kPaddies; ++i) {
    const unsigned mi = kinds(ring[i]);
    if (!mi) continue;
    for (int j = i + 1; j < kPaddies; ++j) {
      const unsigned mj = kinds(ring[j]);
      if (!mj) continue;
      if (!o_.forbid_noop_swap || !(mi == mj && std::has_single_bit(mi))) return true;
    }
  }
  return false;
}

// T6: snakes to the pool, rice to the bag; the Farmer never goes.
void TanboGame::trim(Tokens removed, Events* ev) {
  Tokens& p = s_.ring[s_.mover][s_.trim_paddy];
  p.n[Snake] -= removed.n[Snake];
  s_.pool = std::uint8_t(s_.pool + removed.n[Snake]);
  for (int c = 0; c < kColours; ++c) {
    p.n[colour_token(c)] -= removed.n[colour_token(c)];
    s_.bag.n[c] += removed.n[colour_token(c)];
  }
  if (ev) ev->add("trim", "seat", s_.mover, "paddy", s_.trim_paddy, "tokens", tokens_json(removed));
}

// T5 guard key: 17 bits a paddy (snakes 5, yellow 4, black 4, red 3, Farmer 1), P in hi.
GuardKey guard_key(const Ring& ring, int p) {
  auto pack = [](const Tokens& t) {
    return std::uint64_t(t.n[Snake]) | std::uint64_t(t.n[Yellow]) << 5 |
           std::uint64_t(t.n[Black]) << 9 | std::uint64_t(t.n[Red]) << 13 |
           std::uint64_t(t.n[Farmer]) << 16;
  };
  GuardKey k;
  k.lo = pack(ring[0]) | pack(ring[1]) << 17 | pack(ring[2]) << 34;
  k.hi = pack(ring[3]) | pack(ring[4]) << 17 | std::uint64_t(p) << 34;
  return k;
}

}  // namespace tanbo_server::engine::games::tanbo
