#pragma once
// Test-only ways to build Tsoro positions and read their decisions.
#include <algorithm>
#include <initializer_list>
#include <vector>

#include "engine/core/events.hpp"
#include "engine/games/tsoro/tsoro.hpp"

namespace tsoro_test {

using namespace tanbo_server::engine;
using namespace tanbo_server::engine::games::tsoro;

inline Rules rules(int columns, Heads heads = Heads::two, int bonus = 2, bool optional = false) {
  Rules r;
  r.columns = columns;
  r.heads = heads;
  r.bonus_holes = bonus;
  r.bonus_optional = optional;
  return r;
}

// A side in sowing order: the outer row from the owner's left, then the inner row from the
// owner's right.
inline Side in_sowing_order(std::initializer_list<int> stones) {
  Side s{};
  int i = 0;
  for (int n : stones) s[i++] = std::uint8_t(n);
  return s;
}

// A side as its owner reads it: both rows from the owner's left.
inline Side from_rows(std::initializer_list<int> outer, std::initializer_list<int> inner) {
  const int columns = int(outer.size());
  Side s{};
  int c = 0;
  for (int n : outer) s[outer_hole(c++)] = std::uint8_t(n);
  c = 0;
  for (int n : inner) s[inner_hole(c++, columns)] = std::uint8_t(n);
  return s;
}

inline ActionList legal(const Tsoro& t) {
  ActionList out;
  t.legal_actions(out);
  return out;
}

inline Json legal_json(const Tsoro& t) {
  Json out = Json::array();
  for (Action a : legal(t)) out.push_back(t.action_json(a));
  return out;
}

inline bool is_legal(const Tsoro& t, Action a) {
  const ActionList l = legal(t);
  return std::find(l.begin(), l.end(), a) != l.end();
}

// Tsoro draws nothing; apply still takes an Rng.
inline void play(Tsoro& t, Action a, Events* events = nullptr) {
  FastRng unused(0);
  t.apply(a, unused, events);
}

}  // namespace tsoro_test
