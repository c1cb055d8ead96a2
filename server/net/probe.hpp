#pragma once
// `tanbo-server --healthcheck`: the container's HEALTHCHECK without curl in the image.
#include <chrono>
#include <cstdint>
#include <string>

namespace tanbo_server::server {

// GET /healthz at host:port, over TLS when `tls` (the certificate is not verified: the probe
// checks that its own server answers); true on a 200 within the timeout. A wildcard host
// (0.0.0.0, ::) probes the loopback address of the same family.
bool probe_healthz(const std::string& host, std::uint16_t port, std::chrono::seconds timeout,
                   std::string& detail, bool tls = false);

}  // namespace tanbo_server::server
