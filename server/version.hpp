#pragma once
#include <string_view>

namespace tanbo_server::server {

// The project version, e.g. "0.1.0"; reported by /healthz, --version and the Server header.
std::string_view version();

}  // namespace tanbo_server::server
