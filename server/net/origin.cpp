#include "server/net/origin.hpp"

#include <algorithm>
#include <cctype>

namespace tanbo_server::server {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// "host[:port]" less the port when it is `default_port`.
std::string_view without_port(std::string_view authority, std::string_view default_port) {
  auto colon = authority.rfind(':');
  // An IPv6 literal's colons are inside its brackets.
  if (colon == std::string_view::npos || authority.find(']', colon) != std::string_view::npos)
    return authority;
  return authority.substr(colon + 1) == default_port ? authority.substr(0, colon) : authority;
}

bool authority_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == ':' ||
         c == '[' || c == ']' || c == '_';
}

}  // namespace

std::optional<std::string> normalize_origin(std::string_view origin) {
  const std::string text = lower(origin);
  std::string_view rest = text, default_port;
  if (rest.starts_with("http://")) {
    rest.remove_prefix(7), default_port = "80";
  } else if (rest.starts_with("https://")) {
    rest.remove_prefix(8), default_port = "443";
  } else {
    return std::nullopt;
  }
  if (rest.empty() || rest.front() == ':' || !std::all_of(rest.begin(), rest.end(), authority_char))
    return std::nullopt;
  auto scheme = std::string_view(text).substr(0, text.size() - rest.size());
  return std::string(scheme).append(without_port(rest, default_port));
}

AllowedOrigins::AllowedOrigins(const std::vector<std::string>& origins) {
  for (const auto& o : origins) {
    if (o == "*") any_ = true;
    if (auto n = normalize_origin(o)) listed_.push_back(std::move(*n));
  }
}

bool AllowedOrigins::admits(std::string_view origin, std::string_view host) const {
  if (any_) return true;
  auto normalized = normalize_origin(origin);
  if (!normalized) return false;
  if (std::find(listed_.begin(), listed_.end(), *normalized) != listed_.end()) return true;
  // The server's own: the page's host and port are those the request was sent to. The Host header
  // carries no scheme, so both default ports fold away on its side.
  std::string_view authority = std::string_view(*normalized).substr(normalized->find("//") + 2);
  const std::string given = lower(host);
  std::string_view named = without_port(without_port(given, "80"), "443");
  return !named.empty() && authority == named;
}

}  // namespace tanbo_server::server
