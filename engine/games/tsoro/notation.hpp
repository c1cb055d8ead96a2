#pragma once
// How clients name holes (docs/rules/tsoro.md): always from the deciding player's seat, as
// {"row": "outer" | "inner", "col": c} with c counted from that player's left.
#include "engine/core/game.hpp"
#include "engine/games/tsoro/rules.hpp"

namespace tanbo_server::engine::games::tsoro {

// A hole of the player's own side.
Json hole_json(Hole h, int columns);
// A hole of the opponent's side as the player sees it across the board: the row is the
// opponent's, the column the one it stands in counted from the player's own left.
Json across_json(Hole h, int columns);

}  // namespace tanbo_server::engine::games::tsoro
