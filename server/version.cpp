#include "server/version.hpp"

namespace tanbo::server {

std::string_view version() { return TANBO_VERSION; }

}  // namespace tanbo::server
