#pragma once
// Waiting for what the server does after answering, without timing anything: a condition polled
// until it holds, with a deadline far beyond what a loaded machine needs.
#include <chrono>
#include <functional>
#include <thread>

namespace tanbo_server::server::test {

// Polls `done` every 50 ms for up to `within`: things the server does after answering (a closed
// session giving its place back, a room leaving after its retention) take a moment.
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::milliseconds within = std::chrono::seconds(10)) {
  for (auto until = std::chrono::steady_clock::now() + within;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace tanbo_server::server::test
