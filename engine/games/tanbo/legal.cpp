// T9: every choice the rules give, listed as the pending decision's legal actions. Colour
// choices list distinct colour combinations, never individual tokens, so lists stay short.
#include <algorithm>
#include <array>
#include <bit>

#include "engine/games/tanbo/codes.hpp"
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {
namespace {

// Every (yellow, black, red) with the given total within what `from` holds.
void rice_choices(Kind kind, const Rice& from, int total, ActionList& out) {
  for (int y = 0; y <= std::min<int>(total, from.n[0]); ++y)
    for (int b = 0; b <= std::min<int>(total - y, from.n[1]); ++b)
      if (const int r = total - y - b; r <= from.n[2]) out.push_back(rice_action(kind, y, b, r));
}

Rice rice_in(const Tokens& t) { return Rice{{t.n[Yellow], t.n[Black], t.n[Red]}}; }

}  // namespace

void TanboGame::legal_actions(ActionList& out) const {
  out.clear();
  switch (s_.phase) {
    case Phase::place_farmer:  // T1: any paddy of one's own ring
      for (int p = 0; p < kPaddies; ++p) out.push_back(place_farmer_action(p));
      return;
    case Phase::sow:  // T3: which kind goes down next
      for (int t = 0; t < kTokens; ++t)
        if (s_.hand.n[t]) out.push_back(sow_action(Token(t)));
      return;
    case Phase::harvest:  // T4 A
      rice_choices(Kind::harvest, rice_in(s_.ring[s_.mover][s_.last]), s_.to_move, out);
      return;
    case Phase::rest:  // T4 D
      rice_choices(Kind::rest, s_.harvest[s_.mover], s_.to_move, out);
      return;
    case Phase::swap: {  // T4 E: two different paddies, a token kind from each
      const Ring& ring = s_.ring[opponent(s_.mover)];
      std::array<unsigned, kPaddies> kinds{};
      for (int p = 0; p < kPaddies; ++p)
        for (int t = 0; t < kTokens; ++t) kinds[p] |= unsigned(ring[p].n[t] != 0) << t;
      for (int i = 0; i < kPaddies; ++i)
        for (int j = i + 1; j < kPaddies; ++j)
          for (unsigned a = kinds[i]; a; a &= a - 1)
            for (unsigned b = kinds[j]; b; b &= b - 1) {
              const int ta = std::countr_zero(a), tb = std::countr_zero(b);
              if (!(o_.forbid_noop_swap && ta == tb))
                out.push_back(swap_action(i, Token(ta), j, Token(tb)));
            }
      return;
    }
    case Phase::trim: {  // T6: how many snakes and rice of each colour go; never the Farmer
      const Tokens& p = s_.ring[s_.mover][s_.trim_paddy];
      const int k = s_.to_move;
      for (int s = 0; s <= std::min<int>(k, p.n[Snake]); ++s)
        for (int y = 0; y <= std::min<int>(k - s, p.n[Yellow]); ++y)
          for (int b = 0; b <= std::min<int>(k - s - y, p.n[Black]); ++b)
            if (const int r = k - s - y - b; r <= p.n[Red])
              out.push_back(trim_action(s_.trim_paddy, s, y, b, r));
      return;
    }
    case Phase::over:
      return;
  }
}

}  // namespace tanbo_server::engine::games::tanbo
