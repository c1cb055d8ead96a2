#pragma once
// What the tests of the network edge share: a value read from /metrics, and waiting for a count
// to come back without timing anything.
#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include "tests/server/support/clients.hpp"

namespace tanbo::server::test {

// The value of an unlabelled sample of GET /metrics; -1 when it is not there.
inline double metric(std::uint16_t port, const std::string& name) {
  const std::string text = "\n" + http_get(port, "/metrics").body;
  auto at = text.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + name.size() + 2));
}

// Polls `done` every 50 ms for up to `within`: things the server does after answering (a closed
// session giving its place back) take a moment.
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::milliseconds within = std::chrono::seconds(10)) {
  for (auto until = std::chrono::steady_clock::now() + within;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace tanbo::server::test
