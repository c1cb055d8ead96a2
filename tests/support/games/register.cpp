// The test build's own games, added to the catalogue before main() runs: linked into
// tanbo-server-testgames, a server built from the server's own main.cpp and nothing else.
#include "engine/core/registry.hpp"
#include "tests/support/games/nim.hpp"

namespace {
[[maybe_unused]] const bool registered =
    (tanbo_server::engine::register_game(tanbo_server::engine::games::nim::info()), true);
}  // namespace
