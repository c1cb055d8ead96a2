#include "engine/games/catalogue.hpp"

#include "engine/core/registry.hpp"
#include "engine/games/mancala_simple/mancala_simple.hpp"
#include "engine/games/steere_tanbo/game.hpp"
#include "engine/games/tanbo/game.hpp"
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo_server::engine::games {

std::vector<const GameInfo*> catalogue() {
  return {
      &tanbo::info(),
      &steere_tanbo::info(),
      &mancala_simple::info(),
      &tsoro::info(),
  };
}

}  // namespace tanbo_server::engine::games
