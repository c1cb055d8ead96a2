#include "server/api/account.hpp"

#include <spdlog/spdlog.h>

#include "protocol/limits.hpp"
#include "server/api/account_calls.hpp"
#include "server/api/api.hpp"
#include "server/api/mail.hpp"
#include "server/api/sessions.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo::server::api {
using namespace account_calls;

bool is_account_path(std::string_view path) {
  return path == "/api/login" || path == "/api/recover" || path == "/api/logout" ||
         path == "/api/me" || path == "/api/me/export" || path == "/api/me/recovery" ||
         is_sessions_path(path) || is_mail_path(path);
}

void serve_account(const http::request<http::string_body>& req, const NetContext& ctx,
                   std::string address, Respond respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const auto method = req.method();
  const Call call{req, respond};
  RoomService* rooms = ctx.rooms.get();
  if (!rooms || !rooms->accounts())
    return call.send(error_reply(503, "accounts_unavailable", "this server keeps no accounts"));
  auto& accounts = *rooms->accounts();
  if (serve_mail_open(req, *rooms, address, respond)) return;
  auto body = body_of(req);
  if (!body) return call.send(error_reply(400, "bad_request", "the body must be a JSON object"));

  // POST /api/login {username, password}: a fresh token for the account.
  if (path == "/api/login") {
    if (method != http::verb::post) return call.send(error_reply(405, "bad_method", "use POST"));
    auto username = text(*body, "username", protocol::kMaxUsernameChars);
    auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
    if (!username || !password)
      return call.send(
          error_reply(400, "bad_request", "expected {\"username\": ..., \"password\": ...}"));
    // A bearer token the device holds spares it the account's waits, if it is the account's.
    auto held = req.find(http::field::authorization);
    std::string device;
    if (held != req.end() && held->value().starts_with("Bearer "))
      device = std::string(held->value().substr(7, protocol::kMaxTokenChars));
    std::string agent(req[http::field::user_agent]);
    return accounts.login(address, *username, *password, std::move(device), std::move(agent),
                          call.answer(false, [](const accounts::Answer& a) {
                            return Reply{
                                200,
                                {{"player", {{"id", a.identity.id}, {"name", a.identity.name}}},
                                 {"token", a.token},
                                 {"username", a.identity.username}}};
                          }));
  }

  // POST /api/recover {username, code, password}: a forgotten password replaced with the
  // account's recovery code; every session ends, this device gets a token and a new code.
  if (path == "/api/recover") {
    if (method != http::verb::post) return call.send(error_reply(405, "bad_method", "use POST"));
    auto username = text(*body, "username", protocol::kMaxUsernameChars);
    auto code = text(*body, "code", 64);
    auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
    if (!username || !code || !password)
      return call.send(error_reply(
          400, "bad_request", "expected {\"username\": ..., \"code\": ..., \"password\": ...}"));
    std::string agent(req[http::field::user_agent]);
    return accounts.recover(address, *username, *code, *password, std::move(agent),
                            call.answer(false, [rooms](const accounts::Answer& a) {
                              rooms->close_connections(a.identity.id);
                              return Reply{
                                  200,
                                  {{"player", {{"id", a.identity.id}, {"name", a.identity.name}}},
                                   {"token", a.token},
                                   {"username", a.identity.username},
                                   {"recovery_code", a.recovery_code}}};
                            }));
  }

  std::optional<std::pair<Identity, std::string>> who;
  try {
    who = bearer(req, rooms->identities());
  } catch (const IdentitiesUnavailable&) {
    return call.send(
        error_reply(503, "store_unavailable", "the store cannot check this token now; try again"));
  }
  if (!who) return call.send(error_reply(401, "unauthorized", "a valid bearer token is required"));
  auto& [identity, token] = *who;
  if (is_sessions_path(path)) return serve_sessions(req, ctx, identity, token, respond);
  if (path == "/api/me/mail") return serve_own_mail(req, *rooms, identity, token, address, respond);

  // POST /api/logout {everywhere?}: this token, or every token of the identity.
  if (path == "/api/logout") {
    if (method != http::verb::post) return call.send(error_reply(405, "bad_method", "use POST"));
    auto e = body->find("everywhere");
    if (e != body->end() && !e->is_boolean() && !e->is_null())
      return call.send(error_reply(400, "bad_request", "everywhere: expected true or false"));
    const bool everywhere = e != body->end() && e->is_boolean() && e->get<bool>();
    return accounts.logout(identity, token, everywhere,
                           call.answer(true, [rooms, id = identity.id, everywhere](auto&) {
                             if (everywhere) rooms->close_connections(id);
                             return Reply{200, {{"ok", true}}};
                           }));
  }

  // POST /api/me/recovery {password}: a new recovery code, which replaces the last.
  if (path == "/api/me/recovery") {
    if (method != http::verb::post) return call.send(error_reply(405, "bad_method", "use POST"));
    auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
    if (!password)
      return call.send(error_reply(400, "bad_request", "expected {\"password\": ...}"));
    return accounts.renew_recovery_code(identity, token, address, *password,
                                        call.answer(true, [](const accounts::Answer& a) {
                                          return Reply{200, {{"recovery_code", a.recovery_code}}};
                                        }));
  }

  // GET /api/me/export: everything the server keeps of the identity, as a file.
  if (path == "/api/me/export") {
    if (method != http::verb::get) return call.send(error_reply(405, "bad_method", "use GET"));
    if (!ctx.store) return call.send(error_reply(503, "store_unavailable", "no store is open"));
    auto job = [id = identity.id, version = req.version(), keep = req.keep_alive(),
                respond](store::Store& s) {
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
    return;
  }

  // DELETE /api/me {password}: the identity goes; its games stay, as "deleted player".
  if (path == "/api/me") {
    if (method != http::verb::delete_)
      return call.send(error_reply(405, "bad_method", "use DELETE"));
    auto seats = rooms->lobby().seats_of(identity.id);
    if (!seats.empty()) {
      Reply r = error_reply(409, "games_in_progress",
                            "finish, resign or leave your unfinished games first");
      Json listed = Json::array();
      for (const auto& s : seats) listed.push_back(s.room);
      r.body["error"]["rooms"] = std::move(listed);
      return call.send(r);
    }
    auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
    if (!identity.username.empty() && !password)
      return call.send(error_reply(400, "bad_request", "expected {\"password\": ...}"));
    return accounts.erase(identity, token, address, password.value_or(""),
                          call.answer(true, [rooms, id = identity.id](auto&) {
                            rooms->close_connections(id);
                            return Reply{200, {{"deleted", id}}};
                          }));
  }
  call.send(error_reply(404, "not_found", "no such path: " + std::string(path)));
}

}  // namespace tanbo::server::api
