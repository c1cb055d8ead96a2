#pragma once
// The operators' API (docs/operations.md, "Moderation"): reports, removing a chat line,
// shadow-muting and banning, each behind a bearer token read from --admin-token-file and
// compared in constant time. Without the file every /api/admin path answers 404. Every call is
// logged with what it did, a refused one with its caller's address; an address that failed too
// often is refused 429 for a while, its token not even compared.
#include <chrono>
#include <string>

#include "server/api/serve.hpp"

namespace tanbo_server::server::api {

// Failed calls (a missing or wrong token) one address may make: this many at once, then one
// more each period (five a minute).
inline constexpr int kAdminFailuresBurst = 5;
inline constexpr std::chrono::seconds kAdminFailurePeriod{12};

bool is_admin_path(std::string_view path);
// `address`: the caller's, as the per-address limits count it (empty: this machine, never
// throttled).
void serve_admin(const http::request<http::string_body>& req, const NetContext& ctx,
                 const std::string& address, Respond respond);

// True when `given` equals `expected`, in a time that depends on their lengths only.
bool same_secret(std::string_view given, std::string_view expected);

}  // namespace tanbo_server::server::api
