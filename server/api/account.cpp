#include "server/api/account.hpp"

#include <spdlog/spdlog.h>

#include "protocol/limits.hpp"
#include "server/api/account_calls.hpp"
#include "server/api/api.hpp"
#include "server/api/bots.hpp"
#include "server/api/mail.hpp"
#include "server/api/sessions.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server::api {
using namespace account_calls;

bool is_account_path(std::string_view path) {
  return path == "/api/login" || path == "/api/recover" || path == "/api/logout" ||
         path == "/api/me" || path == "/api/me/export" || path == "/api/me/recovery" ||
         is_sessions_path(path) || is_mail_path(path) || is_bots_path(path);
}

namespace {

// POST /api/login {username, password}: a fresh token for the account.
void login(const Call& call, const Json& body, accounts::Accounts& accounts, std::string address) {
  auto username = text(body, "username", protocol::kMaxUsernameChars);
  auto password = text(body, "password", protocol::kMaxPasswordWireChars);
  if (!username || !password)
    return call.send(
        error_reply(400, "bad_request", "expected {\"username\": ..., \"password\": ...}"));
  // A bearer token the device holds spares it the account's waits, if it is the account's.
  auto held = call.req.find(http::field::authorization);
  std::string device;
  if (held != call.req.end() && held->value().starts_with("Bearer "))
    device = std::string(held->value().substr(7, protocol::kMaxTokenChars));
  std::string agent(call.req[http::field::user_agent]);
  accounts.login(std::move(address), *username, *password, std::move(device), std::move(agent),
                 call.answer(false, [](const accounts::Answer& a) {
                   return Reply{200,
                                {{"player", {{"id", a.identity.id}, {"name", a.identity.name}}},
                                 {"token", a.token},
                                 {"username", a.identity.username}}};
                 }));
}

// POST /api/recover {username, code, password}: a forgotten password replaced with the
// account's recovery code; every session ends, this device gets a token and a new code.
void recover(const Call& call, const Json& body, RoomService& rooms, std::string address) {
  auto username = text(body, "username", protocol::kMaxUsernameChars);
  auto code = text(body, "code", 64);
  auto password = text(body, "password", protocol::kMaxPasswordWireChars);
  if (!username || !code || !password)
    return call.send(error_reply(400, "bad_request",
                                 "expected {\"username\": ..., \"code\": ..., \"password\": ...}"));
  std::string agent(call.req[http::field::user_agent]);
  rooms.accounts()->recover(std::move(address), *username, *code, *password, std::move(agent),
                            call.answer(false, [&rooms](const accounts::Answer& a) {
                              rooms.close_connections(a.identity.id);
                              return Reply{
                                  200,
                                  {{"player", {{"id", a.identity.id}, {"name", a.identity.name}}},
                                   {"token", a.token},
                                   {"username", a.identity.username},
                                   {"recovery_code", a.recovery_code}}};
                            }));
}

// POST /api/logout {everywhere?}: this token, or every token of the identity.
void logout(const Call& call, const Json& body, RoomService& rooms, const Identity& identity,
            const std::string& token) {
  auto e = body.find("everywhere");
  if (e != body.end() && !e->is_boolean() && !e->is_null())
    return call.send(error_reply(400, "bad_request", "everywhere: expected true or false"));
  const bool everywhere = e != body.end() && e->is_boolean() && e->get<bool>();
  rooms.accounts()->logout(identity, token, everywhere,
                           call.answer(true, [&rooms, id = identity.id, everywhere](auto&) {
                             if (everywhere) rooms.close_connections(id);
                             return Reply{200, {{"ok", true}}};
                           }));
}

// POST /api/me/recovery {password}: a new recovery code, which replaces the last.
void renew_recovery_code(const Call& call, const Json& body, accounts::Accounts& accounts,
                         const Identity& identity, const std::string& token, std::string address) {
  auto password = text(body, "password", protocol::kMaxPasswordWireChars);
  if (!password) return call.send(error_reply(400, "bad_request", "expected {\"password\": ...}"));
  accounts.renew_recovery_code(identity, token, std::move(address), *password,
                               call.answer(true, [](const accounts::Answer& a) {
                                 return Reply{200, {{"recovery_code", a.recovery_code}}};
                               }));
}

// GET /api/me/export: everything the server keeps of the identity, as a file.
void export_identity(const Call& call, const NetContext& ctx, const Identity& identity) {
  if (!ctx.store) return call.send(error_reply(503, "store_unavailable", "no store is open"));
  auto job = [id = identity.id, version = call.req.version(), keep = call.req.keep_alive(),
              respond = call.respond](store::Store& s) {
    Json doc;
    try {
      doc = s.export_identity(id);
    } catch (...) {
      respond(to_response(version, keep, false,
                          error_reply(503, "store_unavailable", "the store failed to read")));
      throw;
    }
    doc["exported_at"] = wall_ms();
    Response res = to_response(version, keep, false, {200, std::move(doc)});
    res.set(http::field::content_disposition, "attachment; filename=\"tanbo-" + id + ".json\"");
    res.prepare_payload();
    spdlog::info("accounts: {} exported its data", id);
    respond(std::move(res));
  };
  if (!ctx.store->post(std::move(job)))
    call.send(error_reply(503, "store_unavailable", "the store is shutting down"));
}

// DELETE /api/me {password}: the identity goes; its games stay, as "deleted player".
void erase_identity(const Call& call, const Json& body, RoomService& rooms,
                    const Identity& identity, const std::string& token, std::string address) {
  auto seats = rooms.lobby().seats_of(identity.id);
  if (!seats.empty()) {
    Reply r = error_reply(409, "games_in_progress",
                          "finish, resign or leave your unfinished games first");
    Json listed = Json::array();
    for (const auto& s : seats) listed.push_back(s.room);
    r.body["error"]["rooms"] = std::move(listed);
    return call.send(r);
  }
  auto password = text(body, "password", protocol::kMaxPasswordWireChars);
  if (!identity.username.empty() && !password)
    return call.send(error_reply(400, "bad_request", "expected {\"password\": ...}"));
  rooms.accounts()->erase(identity, token, std::move(address), password.value_or(""),
                          call.answer(true, [&rooms, id = identity.id](auto&) {
                            rooms.close_connections(id);
                            return Reply{200, {{"deleted", id}}};
                          }));
}

// The calls of a bearer token's identity: its sessions, bots, mail, logout, recovery code,
// export and deletion.
void serve_identity(const Call& call, const Json& body, const NetContext& ctx,
                    std::string address) {
  const std::string_view target = call.req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  RoomService& rooms = *ctx.rooms;
  std::optional<std::pair<Identity, std::string>> who;
  try {
    who = bearer(call.req, rooms.identities());
  } catch (const IdentitiesUnavailable&) {
    return call.send(
        error_reply(503, "store_unavailable", "the store cannot check this token now; try again"));
  }
  if (!who) return call.send(error_reply(401, "unauthorized", "a valid bearer token is required"));
  auto& [identity, token] = *who;
  if ((is_sessions_path(path) || path == "/api/logout") && is_access_token(token))
    return call.send(
        error_reply(403, "session_required", "sessions are managed with a session's token"));
  if (is_sessions_path(path)) return serve_sessions(call.req, ctx, identity, token, call.respond);
  if (is_bots_path(path)) return serve_bots(call.req, rooms, identity, token, call.respond);
  if (path == "/api/me/mail")
    return serve_own_mail(call.req, rooms, identity, token, address, call.respond);
  const auto method = call.req.method();
  if (path == "/api/logout" && method == http::verb::post)
    return logout(call, body, rooms, identity, token);
  if (path == "/api/me/recovery" && method == http::verb::post)
    return renew_recovery_code(call, body, *rooms.accounts(), identity, token, std::move(address));
  if (path == "/api/me/export" && method == http::verb::get)
    return export_identity(call, ctx, identity);
  if (path == "/api/me" && method == http::verb::delete_)
    return erase_identity(call, body, rooms, identity, token, std::move(address));
  if (path == "/api/logout" || path == "/api/me/recovery")
    return call.send(error_reply(405, "bad_method", "use POST"));
  if (path == "/api/me/export") return call.send(error_reply(405, "bad_method", "use GET"));
  if (path == "/api/me") return call.send(error_reply(405, "bad_method", "use DELETE"));
  call.send(error_reply(404, "not_found", "no such path: " + std::string(path)));
}

}  // namespace

void serve_account(const http::request<http::string_body>& req, const NetContext& ctx,
                   std::string address, Respond respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const Call call{req, respond};
  RoomService* rooms = ctx.rooms.get();
  if (!rooms || !rooms->accounts())
    return call.send(error_reply(503, "accounts_unavailable", "this server keeps no accounts"));
  if (serve_mail_open(req, *rooms, address, respond)) return;
  auto body = body_of(req);
  if (!body) return call.send(error_reply(400, "bad_request", "the body must be a JSON object"));
  const bool post = req.method() == http::verb::post;
  if (path == "/api/login" || path == "/api/recover") {
    if (!post) return call.send(error_reply(405, "bad_method", "use POST"));
    return path == "/api/login" ? login(call, *body, *rooms->accounts(), std::move(address))
                                : recover(call, *body, *rooms, std::move(address));
  }
  serve_identity(call, *body, ctx, std::move(address));
}

}  // namespace tanbo_server::server::api
