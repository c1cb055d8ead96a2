#include "server/store/names.hpp"

#include "protocol/text.hpp"

namespace tanbo_server::server::store {

std::optional<std::string> validate_name(std::string_view name) {
  auto check = protocol::check_name(name);
  if (!check.ok()) return check.problem;
  if (check.name != name) return "a stored name must be in NFKC";
  return std::nullopt;
}

}  // namespace tanbo_server::server::store
