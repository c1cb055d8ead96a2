#include "server/api/admin.hpp"

#include <openssl/crypto.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <chrono>
#include <cmath>
#include <mutex>

#include "server/api/api.hpp"
#include "server/api/serve.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/metrics/log_budget.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server::api {
namespace {

constexpr std::string_view kAdminPrefix = "/api/admin/";

Response to_response(const http::request<http::string_body>& req, const Reply& reply) {
  return api::to_response(req.version(), req.keep_alive(), false, reply);
}

std::vector<std::string_view> segments(std::string_view path) {
  std::vector<std::string_view> out;
  path.remove_prefix(kAdminPrefix.size());
  while (!path.empty()) {
    auto slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

std::optional<std::int64_t> number(std::string_view s, std::int64_t lo, std::int64_t hi) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || v < lo || v > hi)
    return std::nullopt;
  return v;
}

// Runs `job` on the store's thread; its Reply is the answer.
void on_store(const NetContext& ctx, std::function<Reply(store::Store&)> job, Respond respond,
              const http::request<http::string_body>& req) {
  if (!ctx.store)
    return respond(to_response(req, error_reply(503, "store_unavailable", "no store is open")));
  auto answered = [respond, version = req.version(), keep = req.keep_alive()](const Reply& r) {
    respond(api::to_response(version, keep, false, r));
  };
  if (!ctx.store->post([job = std::move(job), answered](store::Store& s) {
        try {
          Reply r = job(s);
          s.after_commit([answered, r](bool committed) {
            answered(committed ? r : error_reply(503, "store_unavailable", "not committed"));
          });
        } catch (const std::exception& e) {
          answered(error_reply(503, "store_unavailable", e.what()));
        }
      }))
    answered(error_reply(503, "store_unavailable", "the store is shutting down"));
}

// The failed calls of each address, the whole process's (one admin token per process).
class FailedCalls {
 public:
  // How long `address` must wait before its token is looked at again: zero when it need not.
  std::chrono::seconds wait(const std::string& address) {
    std::lock_guard lock(mutex_);
    const double s = std::chrono::duration<double>(failures_.wait(address, Clock::now())).count();
    return std::chrono::seconds(std::int64_t(std::ceil(s)));
  }
  void failed(const std::string& address) {
    std::lock_guard lock(mutex_);
    failures_.spend(address, Clock::now());
  }

 private:
  using Clock = KeyedBuckets::Clock;
  std::mutex mutex_;
  KeyedBuckets failures_{kAdminFailuresBurst,
                         1.0 / std::chrono::duration<double>(kAdminFailurePeriod).count()};
};

FailedCalls& failed_calls() {
  static FailedCalls calls;
  return calls;
}

// Refused calls are logged through a budget of their own: many addresses failing at once write
// a few lines a second and a count of the rest.
metrics::LogBudget& refusal_log() {
  static metrics::LogBudget budget("refused admin calls", {.per_second = 2, .burst = 20});
  return budget;
}

// 401 for a call without a valid token, or 429 while its address has failed too often.
std::optional<Response> refused(const http::request<http::string_body>& req, std::string_view path,
                                const std::string& address, std::string_view expected) {
  const std::string who = address.empty() ? "this machine" : address;
  if (auto wait = address.empty() ? std::chrono::seconds(0) : failed_calls().wait(address);
      wait.count() > 0) {
    metrics::admin_refused("throttled");
    if (refusal_log().take())
      spdlog::warn("admin: {} {} from {} refused: too many failed calls",
                   std::string(req.method_string()), path, who);
    auto res = to_response(
        req, error_reply(429, "rate_limited",
                         "too many failed admin calls from this address; try again in " +
                             std::to_string(wait.count()) + " s"));
    res.set(http::field::retry_after, std::to_string(wait.count()));
    return res;
  }
  auto auth = req.find(http::field::authorization);
  std::string_view given = auth == req.end() ? std::string_view() : std::string_view(auth->value());
  if (given.starts_with("Bearer ") && same_secret(given.substr(7), expected)) return std::nullopt;
  if (!address.empty()) failed_calls().failed(address);
  metrics::admin_refused("unauthorized");
  if (refusal_log().take())
    spdlog::warn("admin: {} {} from {} refused: no valid token", std::string(req.method_string()),
                 path, who);
  return to_response(req, error_reply(401, "unauthorized", "a valid bearer token is required"));
}

Reply written(const store::WriteResult& w, Json ok) {
  if (w.ok()) return {200, std::move(ok)};
  if (w.code == store::WriteResult::Code::not_found)
    return error_reply(404, "not_found", w.message);
  return error_reply(503, "store_unavailable", w.message);
}

}  // namespace

bool is_admin_path(std::string_view path) {
  return path.starts_with(kAdminPrefix) || path == "/api/admin";
}

bool same_secret(std::string_view given, std::string_view expected) {
  if (given.size() != expected.size() || expected.empty()) return false;
  return CRYPTO_memcmp(given.data(), expected.data(), expected.size()) == 0;
}

namespace {

// One admin request, checked: what each call's handler needs.
struct AdminCall {
  const http::request<http::string_body>& req;
  const NetContext& ctx;
  const Respond& respond;
  std::string_view path;
  std::vector<std::string_view> seg;  // the path's segments after /api/admin/
  Params params;

  void answer(const Reply& r) const { respond(to_response(req, r)); }
  std::optional<std::string> param(std::string_view key) const {
    for (const auto& [k, v] : params)
      if (k == key) return v;
    return std::nullopt;
  }
  void log(const std::string& what) const {
    spdlog::info("admin: {} {}: {}", std::string(req.method_string()), std::string(path), what);
  }
  void on_store(std::function<Reply(store::Store&)> job) const {
    api::on_store(ctx, std::move(job), respond, req);
  }
};

// GET /api/admin/reports?limit=
void serve_reports(const AdminCall& call) {
  int limit = int(number(call.param("limit").value_or("50"), 1, 500).value_or(50));
  call.log("listed reports");
  call.on_store([limit](store::Store& s) { return Reply{200, {{"reports", s.reports(limit)}}}; });
}

// GET /api/admin/rooms/{room}/chat/{channel}: a channel kept from the players included.
void serve_chat_channel(const AdminCall& call, const std::string& room,
                        const std::string& channel) {
  call.log("read the " + channel + " channel of room " + room);
  call.on_store([room, channel](store::Store& s) {
    Json lines = Json::array();
    for (const auto& l : s.chat_tail(room, channel, 1000).first)
      lines.push_back({{"n", l.n},
                       {"identity", l.identity},
                       {"name", l.name},
                       {"text", l.text},
                       {"phrase", l.phrase},
                       {"at", l.at}});
    return Reply{200, {{"room", room}, {"channel", channel}, {"lines", lines}}};
  });
}

// DELETE /api/admin/rooms/{room}/chat/{channel}/{n}: the line removed, its readers told.
void remove_chat_line(const AdminCall& call, const std::string& room, const std::string& channel) {
  auto n = number(call.seg[4], 1, INT64_MAX);
  if (!n) return call.answer(error_reply(400, "bad_parameter", "n: expected a line number"));
  call.log("removed line " + std::to_string(*n) + " of the " + channel + " channel of room " +
           room);
  call.on_store([room, channel, n = *n, rooms = call.ctx.rooms.get()](store::Store& s) {
    auto w = s.remove_chat(room, channel, n, wall_ms());
    if (w.ok() && rooms)
      rooms->unsay(
          room, channel == "players" ? protocol::Channel::players : protocol::Channel::spectators,
          n);
    return written(w, {{"removed", {{"room", room}, {"channel", channel}, {"n", n}}}});
  });
}

// PUT|DELETE /api/admin/identities/{id}/shadow-mute[?minutes=]; PUT|DELETE .../ban
void serve_standing(const AdminCall& call, RoomService& rooms) {
  const std::string id(call.seg[1]);
  const bool on = call.req.method() == http::verb::put;
  if (!rooms.identities().by_id(id))
    return call.answer(error_reply(404, "not_found", "no identity " + id));
  // The identities write through the store's one queue: a job queued after it is answered
  // once the change is committed, so every node reads it from then on.
  auto once_stored = [&](Reply r) {
    call.on_store([r = std::move(r)](store::Store&) { return r; });
  };
  if (call.seg[2] == "ban") {
    rooms.moderate(id, std::nullopt, on);
    call.log(std::string(on ? "banned " : "lifted the ban of ") + id);
    return once_stored({200, {{"identity", id}, {"banned", on}}});
  }
  std::int64_t until = 0;
  if (on) {
    auto minutes = number(call.param("minutes").value_or("60"), 1, 60LL * 24 * 365);
    if (!minutes) return call.answer(error_reply(400, "bad_parameter", "minutes: 1 to 525600"));
    until = wall_ms() + *minutes * 60'000;
  }
  rooms.moderate(id, until, std::nullopt);
  call.log(on ? "shadow-muted " + id + " until " + std::to_string(until)
              : "lifted the shadow mute of " + id);
  once_stored({200, {{"identity", id}, {"shadow_until", until ? Json(until) : Json()}}});
}

}  // namespace

void serve_admin(const http::request<http::string_body>& req, const NetContext& ctx,
                 const std::string& address, Respond respond) {
  const std::string_view target = req.target();
  const std::string_view path = target.substr(0, target.find('?'));
  if (ctx.admin_token.empty())
    return respond(to_response(
        req, error_reply(404, "not_found", "the admin API is not enabled (--admin-token-file)")));
  if (auto refusal = refused(req, path, address, ctx.admin_token))
    return respond(std::move(*refusal));
  const AdminCall call{
      req, ctx, respond, path, segments(path), decode_query(target).value_or(Params{})};
  const auto& seg = call.seg;
  const auto method = req.method();
  if (seg.size() == 1 && seg[0] == "reports" && method == http::verb::get)
    return serve_reports(call);
  if (seg.size() >= 4 && seg[0] == "rooms" && seg[2] == "chat" &&
      (seg[3] == "players" || seg[3] == "spectators")) {
    const std::string room(seg[1]), channel(seg[3]);
    if (seg.size() == 4 && method == http::verb::get)
      return serve_chat_channel(call, room, channel);
    if (seg.size() == 5 && method == http::verb::delete_)
      return remove_chat_line(call, room, channel);
  }
  if (seg.size() == 3 && seg[0] == "identities" && ctx.rooms &&
      (seg[2] == "shadow-mute" || seg[2] == "ban") &&
      (method == http::verb::put || method == http::verb::delete_))
    return serve_standing(call, *ctx.rooms);
  call.log("no such admin call");
  call.answer(error_reply(404, "not_found", "no such admin call"));
}

}  // namespace tanbo_server::server::api
