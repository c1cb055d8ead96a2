#include "server/net/request_checks.hpp"

#include <spdlog/spdlog.h>

#include "server/metrics/log_budget.hpp"
#include "server/net/routes.hpp"

namespace tanbo_server::server {
namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

void log_refusal(const http::request<http::string_body>& req, std::string_view remote,
                 std::string_view why) {
  if (!metrics::connection_refusal_log().take()) return;
  std::string_view path = target_path(req.target());
  spdlog::warn("http {} {} from {} refused: {}", std::string_view(req.method_string()),
               path.substr(0, 200), remote, why);
}

}  // namespace

bool is_json_media_type(std::string_view content_type) {
  return iequals(trimmed(content_type.substr(0, content_type.find(';'))), "application/json");
}

std::optional<http::response<http::string_body>> refusal_of(
    const http::request<http::string_body>& req, NetContext& ctx, std::string_view remote) {
  const std::string_view path = target_path(req.target());
  const bool api = path.starts_with("/api/");
  const bool changes = req.method() != http::verb::get && req.method() != http::verb::head;
  if (auto origin = req.find(http::field::origin);
      origin != req.end() && (path == "/ws" || (api && changes)) &&
      !ctx.allowed_origins.admits(origin->value(), req[http::field::host])) {
    ctx.counters.bad_origin.fetch_add(1, std::memory_order_relaxed);
    std::string_view given = origin->value();
    log_refusal(req, remote, fmt::format("Origin {} is not admitted (403)", given.substr(0, 200)));
    return error_response(req, http::status::forbidden, "bad_origin",
                          "requests from the page of another site are refused here; the "
                          "operator may admit its origin with --allowed-origins");
  }
  if (api && !req.body().empty() && !is_json_media_type(req[http::field::content_type])) {
    ctx.counters.bad_content_type.fetch_add(1, std::memory_order_relaxed);
    log_refusal(req, remote, "a body that is not application/json (415)");
    return error_response(req, http::status::unsupported_media_type, "bad_content_type",
                          "the body must be JSON, sent with Content-Type: application/json");
  }
  return std::nullopt;
}

}  // namespace tanbo_server::server
