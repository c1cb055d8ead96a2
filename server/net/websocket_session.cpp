#include "server/net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <sstream>

#include "server/version.hpp"

namespace tanbo::server {

WebSocketSession::WebSocketSession(tcp::socket&& socket, std::shared_ptr<NetContext> ctx)
    : ws_(std::move(socket)), ctx_(std::move(ctx)) {
  beast::error_code ec;
  auto ep = ws_.next_layer().socket().remote_endpoint(ec);
  std::ostringstream s;
  if (!ec) s << ep;
  remote_ = s.str();
}

WebSocketSession::~WebSocketSession() {
  if (id_ != 0) ctx_->connections.remove(id_);
}

void WebSocketSession::run(http::request<http::string_body> req) {
  net::dispatch(ws_.get_executor(), [self = shared_from_this(), req = std::move(req)]() mutable {
    auto timeout = websocket::stream_base::timeout::suggested(beast::role_type::server);
    timeout.idle_timeout = self->ctx_->limits.idle_timeout;
    timeout.keep_alive_pings = true;  // a live client answers the ping at half the idle time
    self->ws_.set_option(timeout);
    self->ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::server, "tanbo-server/" + std::string(version()));
    }));
    // Up to twice the limit still reaches the handler, which answers too_large before closing.
    self->ws_.read_message_max(2 * self->ctx_->limits.ws_message_max);
    self->ws_.async_accept(req, beast::bind_front_handler(&WebSocketSession::on_accept, self));
  });
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) {
    spdlog::info("ws handshake from {} failed: {}", remote_, ec.message());
    return;
  }
  ws_.text(true);
  id_ = ctx_->connections.add(weak_from_this());
  ctx_->counters.ws_opened.fetch_add(1, std::memory_order_relaxed);
  ctx_->counters.ws_live.fetch_add(1, std::memory_order_relaxed);
  open_ = true;
  spdlog::info("ws {} open from {}", id_, remote_);
  ctx_->frames->on_open(shared_from_this());
  do_read();
}

void WebSocketSession::do_read() {
  ws_.async_read(buffer_,
                 beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) {
    if (ec == websocket::error::message_too_big)
      spdlog::info("ws {} closed: message over {} bytes", id_, 2 * ctx_->limits.ws_message_max);
    else if (!is_benign(ec))
      spdlog::info("ws {} read: {}", id_, ec.message());
    return finish();
  }
  if (!ws_.got_text()) {
    close(CloseCode::unsupported_data);
  } else if (!close_requested_) {  // a closing session takes no new work
    auto data = buffer_.cdata();
    ctx_->frames->on_text(shared_from_this(), {static_cast<const char*>(data.data()), data.size()});
  }
  buffer_.consume(buffer_.size());
  do_read();  // also carries the close handshake through once a close frame is sent
}

void WebSocketSession::finish() {
  if (!open_) return;
  open_ = false;
  queue_.clear();
  ctx_->counters.ws_live.fetch_sub(1, std::memory_order_relaxed);
  spdlog::info(
      "ws {} closed{}", id_,
      close_sent_ ? fmt::format(" by the server ({})", static_cast<int>(close_code_)) : "");
  ctx_->frames->on_close(shared_from_this());
}

void WebSocketSession::send(std::shared_ptr<const std::string> text) {
  net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::on_send,
                                                          shared_from_this(), std::move(text)));
}

void WebSocketSession::on_send(std::shared_ptr<const std::string> text) {
  if (!open_ || close_requested_) return;
  if (queue_.size() >= ctx_->limits.ws_queue_max) {
    ctx_->counters.ws_dropped_slow.fetch_add(1, std::memory_order_relaxed);
    spdlog::warn("ws {} dropped: {} frames queued, the client is not reading", id_, queue_.size());
    // What is queued will not be read in time either; only the frame in flight stays.
    queue_.erase(queue_.begin() + (writing_ ? 1 : 0), queue_.end());
    return on_close_request(CloseCode::policy_error);
  }
  queue_.push_back(std::move(text));
  if (!writing_) do_write();
}

void WebSocketSession::do_write() {
  writing_ = true;
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (ec) {
    if (!is_benign(ec)) spdlog::info("ws {} write: {}", id_, ec.message());
    queue_.clear();
    return;  // the pending read ends too and calls finish()
  }
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_requested_) do_close();
}

void WebSocketSession::close(CloseCode code) {
  net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::on_close_request,
                                                          shared_from_this(), code));
}

void WebSocketSession::on_close_request(CloseCode code) {
  if (!open_ || close_requested_) return;
  close_requested_ = true;
  close_code_ = code;
  if (!writing_) do_close();
}

void WebSocketSession::do_close() {
  if (close_sent_ || !ws_.is_open()) return;
  close_sent_ = true;
  writing_ = true;
  ws_.async_close(websocket::close_reason(static_cast<std::uint16_t>(close_code_)),
                  beast::bind_front_handler(&WebSocketSession::on_close, shared_from_this()));
}

void WebSocketSession::on_close(beast::error_code ec) {
  writing_ = false;
  if (ec && !is_benign(ec)) spdlog::info("ws {} close: {}", id_, ec.message());
}

}  // namespace tanbo::server
