#pragma once
// An account's sessions over HTTP (docs/protocol.md, "Sessions"): GET /api/me/sessions lists the
// tokens of the identity (one per device that logged in), DELETE /api/me/sessions/{id} ends one,
// and the connections that said hello with it close, on every node.
#include <string>

#include "server/api/serve.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server::api {

// A session's public id: the first 16 hex digits of its token's hash (the hash itself stays in
// the store; the token was never kept).
inline constexpr std::size_t kSessionIdChars = 16;

bool is_sessions_path(std::string_view path);
// `who` and `token`: the identity the bearer token named, and that token.
void serve_sessions(const http::request<http::string_body>& req, const NetContext& ctx,
                    const Identity& who, const std::string& token, Respond respond);

}  // namespace tanbo_server::server::api
