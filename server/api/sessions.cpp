#include "server/api/sessions.hpp"

#include <spdlog/spdlog.h>

#include "server/api/api.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server::api {
namespace {

constexpr std::string_view kSessions = "/api/me/sessions";

Json listed(const store::Token& t, const std::string& current) {
  return {{"id", t.hash.substr(0, kSessionIdChars)},
          {"created_at", t.created_at},
          {"last_used_at", t.last_used_at},
          {"agent", t.agent},
          {"current", t.hash == current}};
}

}  // namespace

bool is_sessions_path(std::string_view path) {
  return path == kSessions || (path.starts_with(kSessions) && path.size() > kSessions.size() &&
                               path[kSessions.size()] == '/');
}

void serve_sessions(const http::request<http::string_body>& req, const NetContext& ctx,
                    const Identity& who, const std::string& token, Respond respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  auto send = [version = req.version(), keep = req.keep_alive(), respond](const Reply& reply) {
    respond(to_response(version, keep, false, reply));
  };
  if (who.username.empty())
    return send(error_reply(409, "no_account",
                            "a guest has one session, its token: claim an account first"));
  auto rooms = ctx.rooms;
  if (!ctx.store || !rooms) return send(error_reply(503, "store_unavailable", "no store is open"));
  const std::string current = token_hash(token);

  // GET /api/me/sessions: every session of the account, the last used first.
  if (path == kSessions) {
    if (req.method() != http::verb::get) return send(error_reply(405, "bad_method", "use GET"));
    auto job = [id = who.id, current, send](store::Store& s) {
      Json sessions = Json::array();
      try {
        for (const auto& t : s.tokens_of(id)) sessions.push_back(listed(t, current));
      } catch (...) {
        send(error_reply(503, "store_unavailable", "the store failed to read"));
        throw;
      }
      s.after_commit([send, sessions = std::move(sessions)](bool committed) {
        if (!committed) return send(error_reply(503, "store_unavailable", "the store failed"));
        send({200, {{"sessions", sessions}}});
      });
    };
    if (!ctx.store->post(std::move(job)))
      send(error_reply(503, "store_unavailable", "the store is shutting down"));
    return;
  }

  // DELETE /api/me/sessions/{id}: that session ends, and its connections close.
  if (req.method() != http::verb::delete_)
    return send(error_reply(405, "bad_method", "use DELETE"));
  const std::string session(path.substr(kSessions.size() + 1));
  if (session.size() != kSessionIdChars ||
      session.find_first_not_of("0123456789abcdef") != std::string::npos)
    return send(error_reply(404, "not_found", "no session " + session));
  auto job = [id = who.id, session, send, rooms](store::Store& s) {
    std::string hash;
    try {
      for (const auto& t : s.tokens_of(id))
        if (t.hash.starts_with(session)) hash = t.hash;
    } catch (...) {
      send(error_reply(503, "store_unavailable", "the store failed to read"));
      throw;
    }
    if (hash.empty() || !rooms->identities().end_session(id, hash))
      return send(error_reply(404, "not_found", "no session " + session));
    rooms->identities().after_stored([send, rooms, id, hash, session](bool stored) {
      if (!stored) return send(error_reply(503, "store_unavailable", "the store failed"));
      rooms->close_connections(id, true, hash);
      spdlog::info("accounts: {} ended its session {}", id, session);
      send({200, {{"ended", session}}});
    });
  };
  if (!ctx.store->post(std::move(job)))
    send(error_reply(503, "store_unavailable", "the store is shutting down"));
}

}  // namespace tanbo_server::server::api
