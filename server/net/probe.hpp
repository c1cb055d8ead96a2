#pragma once
// `tanbo-server --healthcheck`: the container's HEALTHCHECK without curl in the image.
#include <chrono>
#include <cstdint>
#include <string>

namespace tanbo::server {

// GET /healthz at host:port; true on a 200 within the timeout. A wildcard host (0.0.0.0, ::)
// probes the loopback address of the same family.
bool probe_healthz(const std::string& host, std::uint16_t port, std::chrono::seconds timeout,
                   std::string& detail);

}  // namespace tanbo::server
