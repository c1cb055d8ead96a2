#pragma once
// Every HTTP route the server answers besides the web folder's files: its path (a `{name}`
// segment stands for any one non-empty segment) and its methods. The API's entry (serve.cpp) and
// the routes of server/net refuse any other path (404 not_found) or method (405 bad_method)
// before a handler sees the request, so nothing is answered that this list does not name; the
// tests check it against protocol/openapi.json, route for route, method for method.
#include <array>
#include <optional>
#include <string_view>

#include "server/api/api.hpp"

namespace tanbo_server::server::api {

struct Route {
  std::string_view path;
  std::string_view methods;  // space-separated, as "use ..." says them
};

inline constexpr std::array kRoutes = {
    Route{"/healthz", "GET HEAD"},
    Route{"/metrics", "GET HEAD"},
    Route{"/ws", "GET"},  // the WebSocket upgrade (docs/protocol.md)
    Route{"/api/openapi.json", "GET HEAD"},
    Route{"/api/schema/{name}", "GET HEAD"},
    Route{"/api/games", "GET HEAD"},
    Route{"/api/games/{id}", "GET HEAD"},
    Route{"/api/games/{id}/steps", "GET HEAD"},
    Route{"/api/players/{id}", "GET HEAD"},
    Route{"/api/players/{id}/games", "GET HEAD"},
    Route{"/api/leaderboard", "GET HEAD"},
    Route{"/api/rooms", "GET HEAD"},
    Route{"/api/pools", "GET HEAD"},
    Route{"/api/server", "GET"},
    Route{"/api/login", "POST"},
    Route{"/api/recover", "POST"},
    Route{"/api/logout", "POST"},
    Route{"/api/me", "DELETE"},
    Route{"/api/me/export", "GET"},
    Route{"/api/me/recovery", "POST"},
    Route{"/api/me/sessions", "GET"},
    Route{"/api/me/sessions/{id}", "DELETE"},
    Route{"/api/me/mail", "GET PUT DELETE"},
    Route{"/api/me/bot", "GET POST"},
    Route{"/api/me/play_bots", "PUT"},
    Route{"/api/me/tokens", "GET POST"},
    Route{"/api/me/tokens/{id}", "DELETE"},
    Route{"/api/mail/confirm", "POST"},
    Route{"/api/password/forgot", "POST"},
    Route{"/api/password/reset", "POST"},
    Route{"/api/admin/reports", "GET"},
    Route{"/api/admin/rooms/{room}/chat/{channel}", "GET"},
    Route{"/api/admin/rooms/{room}/chat/{channel}/{n}", "DELETE"},
    Route{"/api/admin/identities/{id}/shadow-mute", "PUT DELETE"},
    Route{"/api/admin/identities/{id}/ban", "PUT DELETE"},
};

// The route whose path matches `path` (no query string), or null.
const Route* find_route(std::string_view path);
// True when `route` answers `method` ("GET", "POST", ...).
bool allows(const Route& route, std::string_view method);

// The refusal of a request whose path or method no route answers, or nullopt: 404 not_found, 405
// bad_method naming the methods to use.
std::optional<Reply> unrouted(std::string_view method, std::string_view path);

}  // namespace tanbo_server::server::api
