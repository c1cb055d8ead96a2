#include "server/api/account.hpp"

#include <spdlog/spdlog.h>

#include "protocol/limits.hpp"
#include "server/api/api.hpp"
#include "server/api/sessions.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo::server::api {
namespace {

using accounts::Refusal;

unsigned status_of(Refusal r, bool logged_in) {
  switch (r) {
    case Refusal::none:
      return 200;
    case Refusal::bad_login:
      return logged_in ? 403 : 401;  // a wrong password, or no login
    case Refusal::login_locked:
    case Refusal::busy:
      return 429;
    case Refusal::no_account:
    case Refusal::already_account:
    case Refusal::games_in_progress:
      return 409;
    case Refusal::unavailable:
      return 503;
    default:
      return 400;
  }
}

// A reply, with Retry-After when a lock says how long to wait.
Response with_wait(unsigned version, bool keep_alive, const Reply& reply,
                   std::chrono::seconds retry_after) {
  Response res = to_response(version, keep_alive, false, reply);
  if (retry_after.count() > 0) {
    res.set(http::field::retry_after, std::to_string(retry_after.count()));
    res.prepare_payload();
  }
  return res;
}

struct Call {
  const http::request<http::string_body>& req;
  Respond respond;
  void send(const Reply& reply) const {
    respond(to_response(req.version(), req.keep_alive(), false, reply));
  }
  // Answers once, from whichever thread the Accounts finish on.
  accounts::Done answer(bool logged_in, std::function<Reply(const accounts::Answer&)> ok) const {
    return [version = req.version(), keep = req.keep_alive(), respond = respond, logged_in,
            ok = std::move(ok)](const accounts::Answer& a) {
      Reply reply = a.ok() ? ok(a)
                           : error_reply(status_of(a.refusal, logged_in),
                                         accounts::code_of(a.refusal), a.message);
      respond(with_wait(version, keep, reply, a.retry_after));
    };
  }
};

// The JSON object of the body; an empty body is {}.
std::optional<Json> body_of(const http::request<http::string_body>& req) {
  if (req.body().empty()) return Json::object();
  Json j = Json::parse(req.body(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

std::optional<std::string> text(const Json& body, const char* key, std::size_t max) {
  auto it = body.find(key);
  if (it == body.end() || !it->is_string()) return std::nullopt;
  const auto& s = it->get_ref<const std::string&>();
  if (s.empty() || s.size() > max * 4) return std::nullopt;
  return s;
}

// The identity the bearer token names, with the token.
std::optional<std::pair<Identity, std::string>> bearer(const http::request<http::string_body>& req,
                                                       Identities& identities) {
  auto auth = req.find(http::field::authorization);
  if (auth == req.end()) return std::nullopt;
  std::string_view given = auth->value();
  if (!given.starts_with("Bearer ")) return std::nullopt;
  std::string token(given.substr(7));
  if (token.empty() || token.size() > protocol::kMaxTokenChars) return std::nullopt;
  auto who = identities.find(token);
  if (!who) return std::nullopt;
  return std::pair(std::move(*who), std::move(token));
}

}  // namespace

bool is_account_path(std::string_view path) {
  return path == "/api/login" || path == "/api/recover" || path == "/api/logout" ||
         path == "/api/me" || path == "/api/me/export" || path == "/api/me/recovery" ||
         is_sessions_path(path);
}

void serve_account(const http::request<http::string_body>& req, const NetContext& ctx,
                   std::string address, Respond respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const auto method = req.method();
  const Call call{req, respond};
  auto* rooms = dynamic_cast<RoomService*>(ctx.frames.get());
  if (!rooms || !rooms->accounts())
    return call.send(error_reply(503, "accounts_unavailable", "this server keeps no accounts"));
  auto& accounts = *rooms->accounts();
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

  auto who = bearer(req, rooms->identities());
  if (!who) return call.send(error_reply(401, "unauthorized", "a valid bearer token is required"));
  auto& [identity, token] = *who;
  if (is_sessions_path(path)) return serve_sessions(req, ctx, identity, token, respond);

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
