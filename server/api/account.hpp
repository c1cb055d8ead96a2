#pragma once
// Accounts over HTTP (docs/protocol.md, "Accounts"): POST /api/login and /api/logout, GET
// /api/me/export, DELETE /api/me, and the sessions (sessions.hpp). Everything but the login names
// its identity with `Authorization: Bearer <token>`, the token a welcome or a login gave.
#include <string>

#include "server/api/serve.hpp"

namespace tanbo_server::server::api {

bool is_account_path(std::string_view path);
// `address`: the client's, where failed logins are counted (empty: not limited).
void serve_account(const http::request<http::string_body>& req, const NetContext& ctx,
                   std::string address, Respond respond);

}  // namespace tanbo_server::server::api
