#pragma once
// A seeker's rating, read from the store for the pairing thread (which may wait for it).
#include <functional>
#include <memory>
#include <string>

namespace tanbo_server::server::store {
class StoreWorker;
}

namespace tanbo_server::server::pairing {

// The rating of `identity` in `game` as the store has it (1500 with no rated game, or when the
// store does not answer within a second).
std::function<double(const std::string& identity, const std::string& game)> store_rating(
    std::shared_ptr<store::StoreWorker> worker);

}  // namespace tanbo_server::server::pairing
