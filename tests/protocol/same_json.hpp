#pragma once
// Equal, and of the same types all the way down: nlohmann's == takes 1 unsigned for 1 signed,
// which a reader that must read as nlohmann does may not. No Catch here: the fuzz targets use it.
#include <nlohmann/json.hpp>

namespace tanbo_server::protocol::test {

inline bool same_json(const nlohmann::json& a, const nlohmann::json& b) {
  if (a.type() != b.type() || a.size() != b.size()) return false;
  if (!a.is_structured()) return a == b;
  for (auto i = a.begin(), k = b.begin(); i != a.end(); ++i, ++k)
    if ((a.is_object() && i.key() != k.key()) || !same_json(*i, *k)) return false;
  return true;
}

}  // namespace tanbo_server::protocol::test
