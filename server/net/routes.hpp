#pragma once
// The HTTP routes. Later: /api/*, /metrics and the static files of web/.
#include <functional>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

// Answers one request; never throws.
http::response<http::string_body> handle_request(http::request<http::string_body>&& req,
                                                 const NetContext& ctx);

// {"error": {code, message}, "status"}, the shape of every refusal, for `req` (HEAD: no body).
http::response<http::string_body> error_response(const http::request<http::string_body>& req,
                                                 http::status status, std::string_view code,
                                                 std::string_view message);

// Requests answered later, off the network threads (/api: the store). `respond` runs once, on
// any thread; the caller writes the response from its own executor.
bool is_deferred(std::string_view path);
// `address`: the client's, as the per-address limits count it (empty: not limited).
void handle_deferred(const http::request<http::string_body>& req, const NetContext& ctx,
                     std::string address,
                     std::function<void(http::response<http::string_body>)> respond);

// The part of a request target before any query string.
std::string_view target_path(std::string_view target);

}  // namespace tanbo_server::server
