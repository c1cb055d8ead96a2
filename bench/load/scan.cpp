#include "bench/load/scan.hpp"

#include <charconv>

namespace tanbo_server::load {
namespace {

constexpr std::size_t kBad = std::string_view::npos;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view s, std::size_t i) {
  while (i < s.size() && is_space(s[i])) ++i;
  return i;
}

// s[i] is the opening quote; the index after the closing one.
std::size_t skip_string(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\') {
      ++i;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return kBad;
}

// The index after the value starting at s[i].
std::size_t skip_value(std::string_view s, std::size_t i) {
  if (i >= s.size()) return kBad;
  char c = s[i];
  if (c == '"') return skip_string(s, i);
  if (c == '{' || c == '[') {
    int depth = 0;
    while (i < s.size()) {
      c = s[i];
      if (c == '"') {
        i = skip_string(s, i);
        if (i == kBad) return kBad;
        continue;
      }
      if (c == '{' || c == '[') ++depth;
      if ((c == '}' || c == ']') && --depth == 0) return i + 1;
      ++i;
    }
    return kBad;
  }
  std::size_t start = i;
  while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']' && !is_space(s[i])) ++i;
  return i == start ? kBad : i;
}

std::string_view unquote(std::string_view v) {
  return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : std::string_view{};
}

}  // namespace

bool scan(std::string_view s, Scanned& out) {
  out = {};
  std::size_t i = skip_space(s, 0);
  if (i >= s.size() || s[i] != '{') return false;
  i = skip_space(s, i + 1);
  if (i < s.size() && s[i] == '}') return true;
  while (i < s.size()) {
    if (s[i] != '"') return false;
    std::size_t key_end = skip_string(s, i);
    if (key_end == kBad) return false;
    std::string_view key = s.substr(i + 1, key_end - i - 2);
    i = skip_space(s, key_end);
    if (i >= s.size() || s[i] != ':') return false;
    i = skip_space(s, i + 1);
    std::size_t end = skip_value(s, i);
    if (end == kBad) return false;
    std::string_view value = s.substr(i, end - i);
    if (key == "type") {
      out.type = unquote(value);
    } else if (key == "room") {
      out.room = unquote(value);
    } else if (key == "status") {
      out.status = unquote(value);
    } else if (key == "code") {
      out.code = unquote(value);
    } else if (key == "re") {
      out.re = value;
    } else if (key == "legal") {
      out.legal = value;
    } else if (key == "version") {
      std::uint64_t v = 0;
      auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec == std::errc{} && p == value.data() + value.size()) out.version = v;
    }
    i = skip_space(s, end);
    if (i >= s.size()) return false;
    if (s[i] == '}') return skip_space(s, i + 1) == s.size();
    if (s[i] != ',') return false;
    i = skip_space(s, i + 1);
  }
  return false;
}

bool split_array(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t i = skip_space(s, 0);
  if (i >= s.size() || s[i] != '[') return false;
  i = skip_space(s, i + 1);
  if (i < s.size() && s[i] == ']') return true;
  while (i < s.size()) {
    std::size_t end = skip_value(s, i);
    if (end == kBad) return false;
    out.push_back(s.substr(i, end - i));
    i = skip_space(s, end);
    if (i >= s.size()) return false;
    if (s[i] == ']') return true;
    if (s[i] != ',') return false;
    i = skip_space(s, i + 1);
  }
  return false;
}

}  // namespace tanbo_server::load
