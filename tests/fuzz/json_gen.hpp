#pragma once
// JSON values from fuzz input: random ones, and small mutations of a valid one (a legal action
// with one number, key or type changed), so most inputs land next to what the code accepts.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <string>

#include "engine/core/game.hpp"

namespace tanbo_server::fuzz {

using engine::Json;

// Text as a parsed message can hold it: valid UTF-8 (bytes from 0x80 read as Latin-1). Every JSON
// the server or the CLI meets was parsed, and nlohmann's parser refuses invalid UTF-8.
inline std::string utf8(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) {
    if (c < 0x80) {
      out.push_back(char(c));
    } else {
      out.push_back(char(0xC0 | (c >> 6)));
      out.push_back(char(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

inline Json random_scalar(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0:
      return nullptr;
    case 1:
      return in.ConsumeBool();
    case 2:
      return in.ConsumeIntegralInRange<std::int64_t>(-4, 40);
    case 3:
      return in.ConsumeIntegral<std::int64_t>();
    case 4:
      return in.ConsumeIntegral<std::uint64_t>();
    case 5:
      return in.ConsumeFloatingPoint<double>();
    default:
      return utf8(in.ConsumeRandomLengthString(16));
  }
}

inline Json random_json(FuzzedDataProvider& in, int depth = 0) {
  int kind = in.ConsumeIntegralInRange(0, depth >= 3 ? 0 : 2);
  if (kind == 0) return random_scalar(in);
  std::size_t n = in.ConsumeIntegralInRange<std::size_t>(0, 4);
  Json out = kind == 1 ? Json::array() : Json::object();
  for (std::size_t i = 0; i < n && in.remaining_bytes(); ++i) {
    if (kind == 1)
      out.push_back(random_json(in, depth + 1));
    else
      out[utf8(in.ConsumeRandomLengthString(8))] = random_json(in, depth + 1);
  }
  return out;
}

// One change somewhere inside j: a leaf replaced or nudged, a member or element added or removed.
inline void mutate(Json& j, FuzzedDataProvider& in) {
  if ((j.is_object() || j.is_array()) && !j.empty() && in.ConsumeIntegralInRange(0, 3) != 0) {
    std::size_t k = in.ConsumeIntegralInRange<std::size_t>(0, j.size() - 1);
    auto it = j.begin();
    std::advance(it, std::ptrdiff_t(k));
    switch (in.ConsumeIntegralInRange(0, 5)) {
      case 0:
        if (j.is_object())
          j.erase(it.key());
        else
          j.erase(k);
        return;
      case 1:
        if (j.is_object())
          j[utf8(in.ConsumeRandomLengthString(8))] = random_scalar(in);
        else
          j.push_back(random_scalar(in));
        return;
      default:
        return mutate(*it, in);
    }
  }
  if (j.is_number_integer() && in.ConsumeBool()) {
    j = j.get<std::int64_t>() + in.ConsumeIntegralInRange<std::int64_t>(-2, 2);
    return;
  }
  if (j.is_string() && in.ConsumeBool()) {
    auto s = j.get<std::string>();
    if (!s.empty() && static_cast<unsigned char>(s.back()) < 0x80)
      s.back() = char(s.back() ^ 1);  // stays ASCII
    else
      s.push_back('x');
    j = s;
    return;
  }
  j = in.ConsumeBool() ? random_scalar(in) : Json::array({j});
}

}  // namespace tanbo_server::fuzz
