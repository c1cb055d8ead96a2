#include "server/version.hpp"

namespace tanbo_server::server {

std::string_view version() { return TANBO_VERSION; }

}  // namespace tanbo_server::server
