#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>

#include "server/net/routes.hpp"
#include "server/net/websocket_session.hpp"

namespace tanbo::server {

namespace {
constexpr auto kReadTimeout = std::chrono::seconds(30);
}

HttpSession::HttpSession(tcp::socket&& socket, std::shared_ptr<NetContext> ctx)
    : stream_(std::move(socket)), ctx_(std::move(ctx)) {}

HttpSession::~HttpSession() {
  if (id_ != 0) ctx_->connections.remove(id_);
}

void HttpSession::run() {
  net::dispatch(stream_.get_executor(), [self = shared_from_this()] {
    self->id_ = self->ctx_->connections.add(self);
    self->do_read();
  });
}

void HttpSession::shutdown() {
  net::post(stream_.get_executor(), [self = shared_from_this()] {
    self->stopping_ = true;
    if (self->reading_) self->stream_.cancel();
  });
}

void HttpSession::do_read() {
  if (stopping_) return do_close();
  parser_.emplace();
  parser_->body_limit(ctx_->limits.http_body_max);
  stream_.expires_after(kReadTimeout);
  reading_ = true;
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  reading_ = false;
  if (ec == http::error::end_of_stream) return do_close();
  if (ec) {
    if (!is_benign(ec)) spdlog::debug("http {} read: {}", id_, ec.message());
    return;
  }
  ctx_->counters.http_requests.fetch_add(1, std::memory_order_relaxed);

  if (websocket::is_upgrade(parser_->get()) && target_path(parser_->get().target()) == "/ws") {
    if (ctx_->counters.ws_live.load(std::memory_order_relaxed) >= ctx_->limits.max_connections) {
      ctx_->counters.ws_refused.fetch_add(1, std::memory_order_relaxed);
      spdlog::warn("http {}: WebSocket refused, {} connections open", id_,
                   ctx_->limits.max_connections);
      http::response<http::string_body> res{http::status::service_unavailable,
                                            parser_->get().version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = "too many connections\n";
      res.keep_alive(false);
      res.prepare_payload();
      return do_write(http::message_generator(std::move(res)));
    }
    stream_.expires_never();  // the WebSocket stream sets its own timeouts
    std::make_shared<WebSocketSession>(stream_.release_socket(), ctx_)->run(parser_->release());
    return;
  }

  if (is_deferred(target_path(parser_->get().target()))) {
    // The answer comes from the store's thread; the write belongs to this session's executor.
    handle_deferred(
        parser_->release(), *ctx_,
        [self = shared_from_this()](http::response<http::string_body> res) {
          net::post(self->stream_.get_executor(),
                    [self, res = std::move(res)]() mutable { self->do_write(std::move(res)); });
        });
    return;
  }
  do_write(handle_request(parser_->release(), *ctx_));
}

void HttpSession::do_write(http::message_generator msg) {
  bool keep_alive = msg.keep_alive();
  beast::async_write(
      stream_, std::move(msg),
      beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) {
    if (!is_benign(ec)) spdlog::debug("http {} write: {}", id_, ec.message());
    return;
  }
  if (!keep_alive) return do_close();
  do_read();
}

void HttpSession::do_close() {
  beast::error_code ec;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
}

}  // namespace tanbo::server
