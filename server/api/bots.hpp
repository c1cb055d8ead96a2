#pragma once
// Bots over HTTP (docs/bots-write.md), with an account's bearer token: GET and POST /api/me/bot
// (the account becomes a bot, for good), PUT /api/me/play_bots (a person plays bots in direct
// challenges, or not), and the personal access tokens: GET and POST /api/me/tokens, DELETE
// /api/me/tokens/{id}. Only a session's token manages access tokens, never an access token.
#include <string>
#include <string_view>

#include "server/api/serve.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server {
class RoomService;
}

namespace tanbo_server::server::api {

bool is_bots_path(std::string_view path);
// For the identity the bearer token named, and that token.
void serve_bots(const http::request<http::string_body>& req, RoomService& rooms,
                const Identity& who, const std::string& token, const Respond& respond);

}  // namespace tanbo_server::server::api
