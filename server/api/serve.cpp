#include "server/api/serve.hpp"

#include "server/api/api.hpp"
#include "server/store/worker.hpp"

namespace tanbo::server::api {
namespace {

Response to_response(unsigned version, bool keep_alive, bool head, const Reply& reply) {
  Response res{static_cast<http::status>(reply.status), version};
  res.set(http::field::server, "tanbo-server");
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(keep_alive);
  res.body() = reply.body.dump();
  res.prepare_payload();
  if (head) res.body().clear();  // Content-Length stays the GET's
  return res;
}

}  // namespace

void serve(const http::request<http::string_body>& req, const NetContext& ctx, Respond respond) {
  const unsigned version = req.version();
  const bool keep_alive = req.keep_alive();
  const bool head = req.method() == http::verb::head;
  auto parsed = parse(req.method_string(), req.target());
  if (auto* refusal = std::get_if<Reply>(&parsed))
    return respond(to_response(version, keep_alive, head, *refusal));
  if (!ctx.store)
    return respond(to_response(version, keep_alive, head,
                               error_reply(503, "store_unavailable", "no store is open")));

  auto job = [query = std::get<Query>(std::move(parsed)), respond, version, keep_alive,
              head](store::Store& store) {
    Reply reply;
    try {
      reply = answer(query, store);
    } catch (...) {
      respond(to_response(version, keep_alive, head,
                          error_reply(503, "store_unavailable", "the store failed to read")));
      throw;  // the worker logs it and turns unhealthy: /healthz says degraded
    }
    respond(to_response(version, keep_alive, head, reply));
  };
  if (!ctx.store->post(std::move(job)))
    respond(to_response(version, keep_alive, head,
                        error_reply(503, "store_unavailable", "the store is shutting down")));
}

}  // namespace tanbo::server::api
