#pragma once
// Display names as the store keeps them: the protocol's name rule (protocol/text.hpp), already
// normalized, so that a name is stored and compared in one form.
#include <optional>
#include <string>
#include <string_view>

namespace tanbo_server::server::store {

// nullopt when `name` is acceptable and in NFKC, else why not.
std::optional<std::string> validate_name(std::string_view name);

}  // namespace tanbo_server::server::store
