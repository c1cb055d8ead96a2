#pragma once
// The headers every HTTP answer of the server carries, the WebSocket upgrade's 101 included:
// HttpSession::do_write sets them on whatever it writes, so no route can forget them.
//
// - Content-Security-Policy: the page's scripts, styles, connections and images come from the
//   server itself (the favicon is a data: URL); no inline script or style, no plugin, no <base>,
//   no form posting elsewhere, and no other site may frame the page (frame-ancestors).
// - X-Frame-Options: DENY, frame-ancestors for browsers that predate it.
// - X-Content-Type-Options: nosniff, so that a 404 echoing a path is never read as a script.
// - Referrer-Policy: same-origin. Nothing leaves for other sites; the page's own requests keep
//   their Origin, which the server checks on its state-changing requests (no-referrer would
//   send "Origin: null" with a same-origin form post).
// - Strict-Transport-Security under TLS only: a year, for the host that answered.
#include "server/net/beast.hpp"

namespace tanbo_server::server {

inline constexpr std::string_view kContentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

void set_security_headers(http::fields& headers, bool tls);

}  // namespace tanbo_server::server
