#pragma once
// Mail over HTTP (docs/protocol.md, "Mail"): GET /api/server says whether the server sends mail;
// without a token, POST /api/password/forgot and /api/password/reset (a new password by a link
// sent to the account's address) and POST /api/mail/confirm (the link that confirms an address);
// with an account's bearer token, GET, PUT and DELETE /api/me/mail.
#include <string>
#include <string_view>

#include "server/api/serve.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server {
class RoomService;
}

namespace tanbo_server::server::api {

bool is_mail_path(std::string_view path);
// The calls that need no token; false, having answered nothing, for any other path.
bool serve_mail_open(const http::request<http::string_body>& req, RoomService& rooms,
                     const std::string& address, const Respond& respond);
// GET, PUT and DELETE /api/me/mail, for the identity the bearer token named.
void serve_own_mail(const http::request<http::string_body>& req, RoomService& rooms,
                    const Identity& who, const std::string& token, const std::string& address,
                    const Respond& respond);

}  // namespace tanbo_server::server::api
