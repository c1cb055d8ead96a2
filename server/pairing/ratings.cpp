#include "server/pairing/ratings.hpp"

#include <chrono>
#include <future>

#include "server/store/elo.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server::pairing {

std::function<double(const std::string&, const std::string&)> store_rating(
    std::shared_ptr<store::StoreWorker> worker) {
  return [worker](const std::string& identity, const std::string& game) {
    auto answer = std::make_shared<std::promise<double>>();
    auto rating = answer->get_future();
    bool posted = worker->post([answer, identity, game](store::Store& s) {
      try {
        answer->set_value(s.rating(identity, game));
      } catch (...) {
        answer->set_value(store::kInitialRating);
      }
    });
    if (!posted || rating.wait_for(std::chrono::seconds(1)) != std::future_status::ready)
      return store::kInitialRating;
    return rating.get();
  };
}

}  // namespace tanbo_server::server::pairing
