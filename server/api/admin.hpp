#pragma once
// The operators' API (docs/operations.md, "Moderation"): reports, removing a chat line,
// shadow-muting and banning, each behind a bearer token read from --admin-token-file and
// compared in constant time. Without the file every /api/admin path answers 404. Every call is
// logged with what it did.
#include "server/api/serve.hpp"

namespace tanbo::server::api {

bool is_admin_path(std::string_view path);
void serve_admin(const http::request<http::string_body>& req, const NetContext& ctx,
                 Respond respond);

// True when `given` equals `expected`, in a time that depends on their lengths only.
bool same_secret(std::string_view given, std::string_view expected);

}  // namespace tanbo::server::api
