// The state as clients see it; the layout is documented in docs/rules/mancala-simple.md.
#include "engine/games/mancala_simple/mancala_simple.hpp"

namespace tanbo::engine::games::mancala_simple {
namespace {}  // namespace

Json MancalaSimple::state_json() const {
  Json seats = Json::array();
  for (Seat t = 0; t < s_.players; ++t) {
    Json holes = Json::array();
    for (int h = 0; h < s_.holes; ++h) holes.push_back(s_.hole(t, h));
    seats.push_back(object(
        "holes", std::move(holes), "store", s_.store(t), "in_circuit",
        !s_.over() && s_.in_circuit(t), "place", s_.place[t] ? Json(s_.place[t]) : Json(nullptr),
        "placed", s_.placed[t] == Placed::open ? Json(nullptr) : Json(placed_name(s_.placed[t]))));
  }
  return object("holes", s_.holes, "stones", s_.stones, "full_ranking", s_.full_ranking, "to_move",
                s_.over() ? Json(nullptr) : Json(s_.to_move), "seats", std::move(seats));
}

}  // namespace tanbo::engine::games::mancala_simple
