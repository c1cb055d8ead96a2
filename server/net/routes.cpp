#include "server/net/routes.hpp"

#include <nlohmann/json.hpp>

#include "server/api/api.hpp"
#include "server/api/routes.hpp"
#include "server/api/serve.hpp"
#include "server/metrics/metrics.hpp"
#include "server/net/static_files.hpp"
#include "server/store/worker.hpp"
#include "server/version.hpp"

namespace tanbo_server::server {
namespace {

using Request = http::request<http::string_body>;

http::response<http::string_body> json_response(const Request& req, http::status status,
                                                const nlohmann::json& body) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tanbo-server");
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = body.dump();
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();  // Content-Length stays the GET's
  return res;
}

http::response<http::string_body> healthz(const Request& req, const NetContext& ctx) {
  auto up = std::chrono::steady_clock::now() - ctx.started;
  bool degraded = ctx.store && !ctx.store->healthy();  // a write or a read failed in the database
  return json_response(
      req, degraded ? http::status::service_unavailable : http::status::ok,
      {{"status", degraded ? "degraded" : "ok"},
       {"store", !ctx.store ? "none"
                 : degraded ? "failing"
                            : "ok"},
       {"version", version()},
       {"uptime_s", std::chrono::duration_cast<std::chrono::seconds>(up).count()}});
}

// Prometheus text, served by our own routes: no second HTTP server, no second port.
http::response<http::string_body> metrics_page(const Request& req, const NetContext& ctx) {
  http::response<http::string_body> res{http::status::ok, req.version()};
  res.set(http::field::server, "tanbo-server");
  res.set(http::field::content_type, metrics::kContentType);
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = metrics::render(ctx);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

}  // namespace

bool is_deferred(std::string_view path) { return api::is_api_path(path); }

void handle_deferred(const Request& req, const NetContext& ctx, std::string address,
                     std::function<void(http::response<http::string_body>)> respond) {
  api::serve(req, ctx, std::move(address), std::move(respond));
}

std::string_view target_path(std::string_view target) { return target.substr(0, target.find('?')); }

http::response<http::string_body> error_response(const Request& req, http::status status,
                                                 std::string_view code, std::string_view message) {
  return json_response(req, status,
                       {{"error", {{"code", code}, {"message", message}}},
                        {"status", static_cast<unsigned>(status)}});
}

http::response<http::string_body> handle_request(Request&& req, const NetContext& ctx) {
  std::string_view path = target_path(req.target());

  // The routes of api::kRoutes outside /api/ (which handle_deferred answers); the rest is the web
  // folder's.
  if (api::find_route(path)) {
    if (auto refusal = api::unrouted(req.method_string(), path))
      return json_response(req, static_cast<http::status>(refusal->status), refusal->body);
    if (path == "/healthz") return healthz(req, ctx);
    if (path == "/metrics") return metrics_page(req, ctx);
    if (path == "/ws")
      return error_response(req, http::status::upgrade_required, "upgrade_required",
                            "/ws speaks WebSocket only");
    return error_response(req, http::status::not_found, "not_found", "no such path");
  }
  if (!ctx.web) return error_response(req, http::status::not_found, "not_found", "no web folder");
  return ctx.web->serve(req);  // `/` and the files of web/: last
}

}  // namespace tanbo_server::server
