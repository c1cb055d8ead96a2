#pragma once
// File descriptors: every connection holds one, and so do the store, the logs and Redis. At start
// the server raises its soft limit to the hard one and checks that its connection limits fit.
#include <cstddef>
#include <string>
#include <vector>

namespace tanbo_server::server {

// Descriptors kept for what is not a connection: the store, its WAL, the logs, Redis, the web
// files being served.
inline constexpr std::size_t kReservedDescriptors = 64;

struct DescriptorPlan {
  std::size_t limit = 0;     // the soft limit after raising it (0: unknown)
  std::size_t max_http = 0;  // what --max-http-connections becomes
  std::vector<std::string> warnings;
};

// Raises RLIMIT_NOFILE's soft limit to its hard limit, then fits the limits in it: when the
// WebSockets and the HTTP connections cannot all have a descriptor, the HTTP connections get at
// most a quarter of what is left (so that sockets which never finish a request cannot starve
// players), and each shortfall is a warning naming the flags to change.
DescriptorPlan plan_descriptors(std::size_t max_connections, std::size_t max_http);

}  // namespace tanbo_server::server
