#pragma once
// Display names: the one place where a name is judged.
#include <optional>
#include <string>
#include <string_view>

namespace tanbo::server::store {

inline constexpr int kNameMaxChars = 24;

// nullopt when `name` is acceptable, else why not. A name is valid UTF-8 of 1 to 24 characters
// (code points): letters (ASCII and the letters of the common scripts), digits, space, '_', '-'
// and '.', with no space at either end.
std::optional<std::string> validate_name(std::string_view name);

}  // namespace tanbo::server::store
