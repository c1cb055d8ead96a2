#pragma once
// Reading a client's action back into its code. Each reader gives the code whose action_json()
// would equal the JSON it is given: the referee then checks that one code against the legal
// list rather than building and comparing the whole list. Equality is nlohmann's, so a number
// is read as a client may have written it (3, 3u or 3.0 are all the integer 3).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/core/game.hpp"

namespace tanbo_server::engine {

// The member `key` of an object, or null when j is not an object or has no such member.
inline const Json* member(const Json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

// The integer in [lo, hi] that j compares equal to, if any.
inline std::optional<int> int_in(const Json* j, int lo, int hi) {
  if (!j) return std::nullopt;
  std::int64_t v = 0;
  if (j->is_number_integer()) {
    v = j->get<std::int64_t>();
  } else if (j->is_number_unsigned()) {
    if (j->get<std::uint64_t>() > std::uint64_t(hi)) return std::nullopt;
    v = std::int64_t(j->get<std::uint64_t>());
  } else if (j->is_number_float()) {
    const double d = j->get<double>();
    if (!(d >= lo && d <= hi) || d != std::trunc(d)) return std::nullopt;  // NaN fails too
    v = std::int64_t(d);
  } else {
    return std::nullopt;
  }
  if (v < lo || v > hi) return std::nullopt;
  return int(v);
}

// The string j holds, if it is one.
inline std::optional<std::string_view> string_of(const Json* j) {
  if (!j || !j->is_string()) return std::nullopt;
  return std::string_view(j->get_ref<const std::string&>());
}

}  // namespace tanbo_server::engine
