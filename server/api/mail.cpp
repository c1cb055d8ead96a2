#include "server/api/mail.hpp"

#include "server/api/account_calls.hpp"
#include "server/mail/address.hpp"
#include "server/rooms/service.hpp"

namespace tanbo_server::server::api {
namespace {

using namespace account_calls;

// The mails' language: the body's `lang`, else the first of Accept-Language's that the server
// writes in, else English.
std::string lang_of(const http::request<http::string_body>& req, const Json& body) {
  for (std::string_view l : {"en", "fr", "ja"})
    if (body.value("lang", std::string()) == l) return std::string(l);
  std::string_view accepted = req[http::field::accept_language];
  for (std::size_t i = 0; i < accepted.size(); i = accepted.find(',', i) + 1) {
    while (i < accepted.size() && accepted[i] == ' ') ++i;
    for (std::string_view l : {"en", "fr", "ja"})
      if (accepted.substr(i, 2) == l) return std::string(l);
    if (accepted.find(',', i) == std::string_view::npos) break;
  }
  return "en";
}

// A link's token: hex, as the server makes them.
std::optional<std::string> link_token(const Json& body) {
  auto t = text(body, "token", 64);
  if (!t || t->size() > 64) return std::nullopt;
  return t;
}

Reply mail_reply(const accounts::Answer& a) {
  return {200,
          {{"mail", a.mail.empty() ? Json() : Json(a.mail)},
           {"pending", a.pending.empty() ? Json() : Json(a.pending)}}};
}

}  // namespace

bool is_mail_path(std::string_view path) {
  return path == "/api/server" || path == "/api/password/forgot" || path == "/api/password/reset" ||
         path == "/api/mail/confirm" || path == "/api/me/mail";
}

bool serve_mail_open(const http::request<http::string_body>& req, RoomService& rooms,
                     const std::string& address, const Respond& respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const Call call{req, respond};
  auto& accounts = *rooms.accounts();
  // GET /api/server: what the page offers depends on it (the mail way into a forgotten account).
  if (path == "/api/server") {
    if (req.method() != http::verb::get)
      call.send(error_reply(405, "bad_method", "use GET"));
    else
      call.send({200, {{"mail", accounts.has_mail()}}});
    return true;
  }
  if (path != "/api/password/forgot" && path != "/api/password/reset" &&
      path != "/api/mail/confirm")
    return false;
  if (req.method() != http::verb::post) {
    call.send(error_reply(405, "bad_method", "use POST"));
    return true;
  }
  auto body = body_of(req);
  if (!body) {
    call.send(error_reply(400, "bad_request", "the body must be a JSON object"));
    return true;
  }
  // POST /api/password/forgot {login, lang?}: the same answer whatever exists.
  if (path == "/api/password/forgot") {
    auto login = text(*body, "login", mail::kMaxAddressChars);
    if (!login) {
      call.send(
          error_reply(400, "bad_request", "expected {\"login\": a username or a mail address}"));
      return true;
    }
    accounts.forgot_password(address, *login, lang_of(req, *body),
                             call.answer(false, [](const accounts::Answer&) {
                               return Reply{200, {{"asked", true}}};
                             }));
    return true;
  }
  auto token = link_token(*body);
  // POST /api/mail/confirm {token}: the address the link was sent to becomes the account's.
  if (path == "/api/mail/confirm") {
    if (!token) {
      call.send(error_reply(400, "bad_request", "expected {\"token\": ...}"));
      return true;
    }
    accounts.confirm_mail(*token, call.answer(false, [](const accounts::Answer& a) {
      return Reply{200, {{"mail", a.mail}}};
    }));
    return true;
  }
  // POST /api/password/reset {token, password}: a new password; every session ends.
  auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
  if (!token || !password) {
    call.send(error_reply(400, "bad_request", "expected {\"token\": ..., \"password\": ...}"));
    return true;
  }
  std::string agent(req[http::field::user_agent]);
  accounts.reset_password(address, *token, *password, std::move(agent),
                          call.answer(false, [rooms = &rooms](const accounts::Answer& a) {
                            rooms->close_connections(a.identity.id);
                            return Reply{
                                200,
                                {{"player", {{"id", a.identity.id}, {"name", a.identity.name}}},
                                 {"token", a.token},
                                 {"username", a.identity.username}}};
                          }));
  return true;
}

void serve_own_mail(const http::request<http::string_body>& req, RoomService& rooms,
                    const Identity& who, const std::string& token, const std::string& address,
                    const Respond& respond) {
  const Call call{req, respond};
  auto& accounts = *rooms.accounts();
  const auto method = req.method();
  // GET /api/me/mail: {mail, pending}, each an address or null.
  if (method == http::verb::get) return accounts.mail_of(who, call.answer(true, mail_reply));
  if (method != http::verb::put && method != http::verb::delete_)
    return call.send(error_reply(405, "bad_method", "use GET, PUT or DELETE"));
  auto body = body_of(req);
  if (!body) return call.send(error_reply(400, "bad_request", "the body must be a JSON object"));
  auto password = text(*body, "password", protocol::kMaxPasswordWireChars);
  // DELETE /api/me/mail {password}: no address any more.
  if (method == http::verb::delete_) {
    if (!password)
      return call.send(error_reply(400, "bad_request", "expected {\"password\": ...}"));
    return accounts.remove_mail(who, token, address, *password, call.answer(true, mail_reply));
  }
  // PUT /api/me/mail {mail, password, lang?}: a link to confirm it goes to the address.
  auto mail = text(*body, "mail", mail::kMaxAddressChars);
  if (!password || !mail)
    return call.send(
        error_reply(400, "bad_request", "expected {\"mail\": ..., \"password\": ...}"));
  accounts.ask_mail(who, token, address, *password, *mail, lang_of(req, *body),
                    call.answer(true, mail_reply));
}

}  // namespace tanbo_server::server::api
