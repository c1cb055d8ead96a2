#pragma once
// Test-only helpers: Steere Tanbo positions from text diagrams (rows top first, '.' 'b' 'w'),
// and moves and legal lists by algebraic name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/events.hpp"
#include "engine/games/steere_tanbo/game.hpp"

namespace steere_test {

using namespace tanbo_server::engine;
using namespace tanbo_server::engine::games::steere_tanbo;

// The board's size is the diagram's; seat 0 plays Black.
inline SteereTanbo diagram(const std::vector<std::string>& rows, Color to_move = black) {
  const Geometry g{int(rows.at(0).size()), int(rows.size())};
  return SteereTanbo(Position::from_rows(g, rows, to_move), 0);
}

inline std::vector<std::string> legal_names(const Game& game, const Geometry& g) {
  ActionList legal;
  game.legal_actions(legal);
  std::vector<std::string> names;
  for (Action a : legal) names.push_back(g.name(Point(a.code)));
  std::sort(names.begin(), names.end());
  return names;
}

inline std::vector<std::string> legal_names(const SteereTanbo& game) {
  return legal_names(game, game.position().geometry());
}

// Plays `point` (which must be legal) and returns the events.
inline Json play(SteereTanbo& game, std::string_view point) {
  const auto p = game.position().geometry().parse(point);
  REQUIRE(p);
  REQUIRE(game.position().legal(*p));
  FastRng rng(1);
  Events events;
  game.apply(Action{*p}, rng, &events);
  return events.json();
}

inline const Json* find_event(const Json& events, std::string_view type) {
  for (const Json& e : events)
    if (e.at("type") == type) return &e;
  return nullptr;
}

}  // namespace steere_test
