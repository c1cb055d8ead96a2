#pragma once
// The wall clock as the server stores and sends it: milliseconds since the Unix epoch (chat
// lines' `at`, deadlines, moderation, journal times).
#include <chrono>
#include <cstdint>

namespace tanbo_server::server {

inline std::int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace tanbo_server::server
