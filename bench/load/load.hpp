#pragma once
// The load run: opens the connections, sets the rooms up, plays them for the duration and returns
// the figures as one JSON object (the format docs/performance.md reads).
#include <nlohmann/json.hpp>

#include "bench/load/options.hpp"

namespace tanbo_server::load {

// Blocks for the set-up plus the duration plus at most a few seconds of draining and closing.
nlohmann::json run(const Options& options);

}  // namespace tanbo_server::load
