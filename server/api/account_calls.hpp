#pragma once
// What the account calls share (account.cpp, mail.cpp): the status of a refusal, the answer
// from whichever thread the Accounts finish on, the body's fields, the bearer's identity.
// Internal to server/api.
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "protocol/limits.hpp"
#include "server/accounts/accounts.hpp"
#include "server/api/api.hpp"
#include "server/api/serve.hpp"
#include "server/identity/identities.hpp"

namespace tanbo_server::server::api::account_calls {

using accounts::Refusal;

inline unsigned status_of(Refusal r, bool logged_in) {
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
    case Refusal::mail_taken:
    case Refusal::already_rated:
      return 409;
    case Refusal::no_such_token:
      return 404;
    case Refusal::mail_limited:
      return 429;
    case Refusal::unavailable:
    case Refusal::mail_unavailable:
      return 503;
    default:
      return 400;
  }
}

// A reply, with Retry-After when a lock says how long to wait.
inline Response with_wait(unsigned version, bool keep_alive, const Reply& reply,
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
inline std::optional<Json> body_of(const http::request<http::string_body>& req) {
  if (req.body().empty()) return Json::object();
  Json j = Json::parse(req.body(), nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  return j;
}

inline std::optional<std::string> text(const Json& body, const char* key, std::size_t max) {
  auto it = body.find(key);
  if (it == body.end() || !it->is_string()) return std::nullopt;
  const auto& s = it->get_ref<const std::string&>();
  if (s.empty() || s.size() > max * 4) return std::nullopt;
  return s;
}

// The identity the bearer token names, with the token.
inline std::optional<std::pair<Identity, std::string>> bearer(
    const http::request<http::string_body>& req, Identities& identities) {
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

}  // namespace tanbo_server::server::api::account_calls
