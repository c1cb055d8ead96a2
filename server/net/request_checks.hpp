#pragma once
// What a request must pass before any route sees it (docs/protocol.md, "HTTP API"):
// - /ws and the API's state-changing requests (any method but GET and HEAD under /api/) from a web
//   page of an origin the server does not admit (origin.hpp): 403 bad_origin;
// - a body sent to /api/ that is not declared JSON (Content-Type application/json, parameters
//   allowed): 415 bad_content_type. A page of another site can post text/plain without asking
//   first (no CORS preflight), never application/json.
#include <optional>
#include <string_view>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

// The refusal to send, counted in ctx.counters and logged (within the refusal log's budget); or
// nullopt when the request may go on. `remote`: the peer, for the log line.
std::optional<http::response<http::string_body>> refusal_of(
    const http::request<http::string_body>& req, NetContext& ctx, std::string_view remote);

// True when `content_type` (a Content-Type header's value) is application/json, whatever its
// parameters.
bool is_json_media_type(std::string_view content_type);

}  // namespace tanbo_server::server
