#include "server/mail/address.hpp"

#include <algorithm>

namespace tanbo_server::server::mail {
namespace {

bool local_char(char c) {
  if (c >= 'a' && c <= 'z') return true;
  if (c >= '0' && c <= '9') return true;
  return std::string_view("!#$%&'*+-/=?^_`{|}~.").find(c) != std::string_view::npos;
}

bool label_ok(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-')
    return false;
  return std::all_of(label.begin(), label.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

}  // namespace

std::optional<std::string> normalize_address(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (text.empty() || text.size() > kMaxAddressChars) return std::nullopt;
  std::string s(text);
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  const auto at = s.rfind('@');
  if (at == std::string::npos || at == 0 || at > 64) return std::nullopt;
  const std::string_view local(s.data(), at), domain(s.data() + at + 1, s.size() - at - 1);
  if (!std::all_of(local.begin(), local.end(), local_char) || local.front() == '.' ||
      local.back() == '.' || local.find("..") != std::string_view::npos)
    return std::nullopt;
  if (domain.find('.') == std::string_view::npos) return std::nullopt;
  for (std::string_view rest = domain; !rest.empty();) {
    const auto dot = rest.find('.');
    if (!label_ok(rest.substr(0, dot))) return std::nullopt;
    if (dot == std::string_view::npos) break;
    rest.remove_prefix(dot + 1);
    if (rest.empty()) return std::nullopt;
  }
  return s;
}

std::optional<std::string> public_url(std::string_view text) {
  std::string_view host = text;
  if (host.starts_with("http://"))
    host.remove_prefix(7);
  else if (host.starts_with("https://"))
    host.remove_prefix(8);
  else
    return std::nullopt;
  const bool clean = std::none_of(text.begin(), text.end(), [](char c) {
    return c <= ' ' || c > '~' || c == '#' || c == '?' || c == '"' || c == '<' || c == '>' ||
           c == '\\';
  });
  if (!clean || host.empty() || host.front() == '/') return std::nullopt;
  while (text.ends_with('/')) text.remove_suffix(1);
  return std::string(text);
}

}  // namespace tanbo_server::server::mail
