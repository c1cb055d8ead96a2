#pragma once
// Argument helpers shared by tanbo-engine's commands.
#include <cstdint>
#include <string>

namespace tanbo::engine {

// A decimal count of at most 18 digits; false for anything else (sign, space, empty, overflow).
inline bool parse_count(const std::string& text, std::uint64_t& out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18)
    return false;
  out = std::stoull(text);
  return true;
}

}  // namespace tanbo::engine
