#include "engine/games/catalogue.hpp"

#include "engine/core/registry.hpp"

namespace tanbo::engine::games {

std::vector<const GameInfo*> catalogue() {
  return {
  };
}

}  // namespace tanbo::engine::games
