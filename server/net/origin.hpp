#pragma once
// Which web pages may open /ws and call the API's state-changing requests. A browser names the
// page's origin in every WebSocket upgrade and every non-GET request; a request without Origin
// (a bot, curl) comes from no page and passes. A page of the server's own origin passes; so do
// those the operator lists (--allowed-origins). Any other page is refused: it would act with its
// visitors' addresses (their login attempts, their connections).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo_server::server {

// "scheme://host[:port]" as compared: lowercase, the scheme's default port dropped (80 for http,
// 443 for https). nullopt when `origin` is not one: another scheme, a path, userinfo, "null".
std::optional<std::string> normalize_origin(std::string_view origin);

class AllowedOrigins {
 public:
  AllowedOrigins() = default;
  // Each normalize_origin's (unreadable ones are ignored: the configuration checked them), or "*"
  // for any origin.
  explicit AllowedOrigins(const std::vector<std::string>& origins);

  // True when a request carrying `origin` (its Origin header) to the server as `host` names it
  // (its Host header) may pass: the same host and port, or a listed origin.
  bool admits(std::string_view origin, std::string_view host) const;

 private:
  bool any_ = false;
  std::vector<std::string> listed_;  // normalized
};

}  // namespace tanbo_server::server
