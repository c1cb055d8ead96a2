#include "server/net/security_headers.hpp"

namespace tanbo_server::server {

void set_security_headers(http::fields& headers, bool tls) {
  headers.set("Content-Security-Policy", kContentSecurityPolicy);
  headers.set("X-Frame-Options", "DENY");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "same-origin");
  if (tls) headers.set(http::field::strict_transport_security, "max-age=31536000");
}

}  // namespace tanbo_server::server
