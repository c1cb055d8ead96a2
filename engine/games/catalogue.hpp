#pragma once
// The list of registered games, in the order clients see them. Each game folder provides info().
#include <vector>

namespace tanbo_server::engine {
struct GameInfo;
}

namespace tanbo_server::engine::games {
std::vector<const GameInfo*> catalogue();
}
