#include "server/api/bots.hpp"

#include "server/api/account_calls.hpp"
#include "server/rooms/service.hpp"

namespace tanbo_server::server::api {
using namespace account_calls;

namespace {

constexpr std::string_view kBot = "/api/me/bot";
constexpr std::string_view kPlayBots = "/api/me/play_bots";
constexpr std::string_view kTokens = "/api/me/tokens";

Json flags(const accounts::Answer& a) { return {{"bot", a.bot}, {"play_bots", a.play_bots}}; }

Json tokens(const accounts::Answer& a) {
  Json list = Json::array();
  for (const auto& t : a.access_tokens)
    list.push_back({{"id", t.id},
                    {"name", t.name},
                    {"created_at", t.created_at},
                    {"last_used_at", t.last_used_at}});
  return list;
}

// GET /api/me/tokens, POST /api/me/tokens {name}, DELETE /api/me/tokens/{id}.
void serve_tokens(const Call& call, std::string_view path, const Json& body, RoomService& rooms,
                  const Identity& who) {
  auto& accounts = *rooms.accounts();
  const auto method = call.req.method();
  if (path == kTokens && method == http::verb::get)
    return accounts.access_tokens(who, call.answer(true, [](const accounts::Answer& a) {
      return Reply{200, {{"tokens", tokens(a)}}};
    }));
  if (path == kTokens && method == http::verb::post) {
    auto name = text(body, "name", 40);
    if (!name) return call.send(error_reply(400, "bad_request", "expected {\"name\": ...}"));
    return accounts.create_access_token(
        who, *name, call.answer(true, [](const accounts::Answer& a) {
          // The token is said this once: the store keeps its hash only.
          return Reply{200, {{"token", a.token}, {"tokens", tokens(a)}}};
        }));
  }
  if (path == kTokens) return call.send(error_reply(405, "bad_method", "use GET or POST"));
  if (method != http::verb::delete_) return call.send(error_reply(405, "bad_method", "use DELETE"));
  std::string id(path.substr(kTokens.size() + 1));
  accounts.revoke_access_token(
      who, id, call.answer(true, [&rooms, owner = who.id, id](const accounts::Answer& a) {
        // Its connections close, on every node; another node's next hello asks the store.
        rooms.close_connections(owner, true, a.revoked_hash);
        return Reply{200, {{"revoked", id}, {"tokens", tokens(a)}}};
      }));
}

}  // namespace

bool is_bots_path(std::string_view path) {
  return path == kBot || path == kPlayBots || path == kTokens ||
         (path.starts_with(kTokens) && path.size() > kTokens.size() && path[kTokens.size()] == '/');
}

void serve_bots(const http::request<http::string_body>& req, RoomService& rooms,
                const Identity& who, const std::string& token, const Respond& respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  const Call call{req, respond};
  auto body = body_of(req);
  if (!body) return call.send(error_reply(400, "bad_request", "the body must be a JSON object"));
  auto& accounts = *rooms.accounts();
  const auto method = req.method();
  auto answer_flags = call.answer(true, [](const accounts::Answer& a) {
    return Reply{200, flags(a)};
  });
  if (path == kBot) {
    if (method == http::verb::get) return accounts.access_tokens(who, answer_flags);
    if (method == http::verb::post) return accounts.make_bot(who, answer_flags);
    return call.send(error_reply(405, "bad_method", "use GET or POST"));
  }
  if (path == kPlayBots) {
    if (method != http::verb::put) return call.send(error_reply(405, "bad_method", "use PUT"));
    auto on = body->find("play_bots");
    if (on == body->end() || !on->is_boolean())
      return call.send(error_reply(400, "bad_request", "expected {\"play_bots\": true or false}"));
    return accounts.set_play_bots(who, on->get<bool>(), answer_flags);
  }
  if (is_access_token(token))
    return call.send(error_reply(403, "session_required",
                                 "access tokens are managed with a session's token, not one"));
  serve_tokens(call, path, *body, rooms, who);
}

}  // namespace tanbo_server::server::api
