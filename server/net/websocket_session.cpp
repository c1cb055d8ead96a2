#include "server/net/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <boost/beast/ssl.hpp>

#include "server/net/http_session.hpp"
#include "server/net/security_headers.hpp"
#include "server/version.hpp"

namespace tanbo_server::server {
namespace {

std::string_view close_words(CloseCode code) {
  switch (code) {
    case CloseCode::normal:
      return "normal";
    case CloseCode::going_away:
      return "the server is stopping";
    case CloseCode::unsupported_data:
      return "a binary frame";
    case CloseCode::policy_error:
      return "policy";
    case CloseCode::too_big:
      return "a message too large";
    case CloseCode::internal_error:
      return "internal error";
  }
  return "?";
}

// permessage-deflate, for a client that offers it with client_max_window_bits (every browser
// does; a client that cannot limit its window is answered uncompressed). A state differs little
// from the one before it, and with the history of the connection's earlier frames (context
// takeover) deflate sends a seventh of its bytes. 4 KiB windows both ways and memLevel 4 keep what
// a compressing connection holds near 40 KiB, allocated at its first compressed frame; a frame
// under 64 bytes goes as it is.
websocket::permessage_deflate deflate_options() {
  websocket::permessage_deflate pmd;
  pmd.server_enable = true;
  pmd.server_max_window_bits = 12;
  pmd.client_max_window_bits = 12;  // asked of a client that offers to limit it
  pmd.compLevel = 1;
  pmd.memLevel = 4;
  pmd.msg_size_threshold = 64;
  return pmd;
}

// At most 200 bytes of `text`, cut before a UTF-8 continuation byte.
std::string clipped(std::string_view text) {
  constexpr std::size_t kMax = 200;
  if (text.size() <= kMax) return std::string(text);
  std::size_t n = kMax;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) --n;
  return std::string(text.substr(0, n));
}

}  // namespace

template <class Stream>
WebSocketSession<Stream>::WebSocketSession(Stream&& stream, std::shared_ptr<NetContext> ctx,
                                           std::string remote, std::string address,
                                           AddressPlace place)
    : ws_(std::move(stream)),
      ctx_(std::move(ctx)),
      place_(std::move(place)),
      hello_deadline_(ws_.get_executor()),
      remote_(std::move(remote)),
      address_(std::move(address)) {}

template <class Stream>
WebSocketSession<Stream>::~WebSocketSession() {
  if (id_ != 0) ctx_->connections.remove(id_);
}

template <class Stream>
void WebSocketSession<Stream>::run(http::request<http::string_body> req) {
  user_agent_ = clipped(req[http::field::user_agent]);
  net::dispatch(
      ws_.get_executor(), [self = this->shared_from_this(), req = std::move(req)]() mutable {
        auto timeout = websocket::stream_base::timeout::suggested(beast::role_type::server);
        timeout.idle_timeout = self->ctx_->limits.idle_timeout;
        timeout.keep_alive_pings = true;  // a live client answers the ping at half the idle time
        self->ws_.set_option(timeout);
        self->ws_.set_option(websocket::stream_base::decorator(
            [tls = self->ctx_->tls != nullptr](websocket::response_type& res) {
              res.set(http::field::server, "tanbo-server/" + std::string(version()));
              set_security_headers(res, tls);
            }));
        // Up to twice the limit still reaches the handler, which answers too_large before closing.
        self->ws_.read_message_max(2 * self->ctx_->limits.ws_message_max);
        if (self->ctx_->limits.compression) self->ws_.set_option(deflate_options());
        self->ws_.async_accept(req, beast::bind_front_handler(&WebSocketSession::on_accept, self));
      });
}

template <class Stream>
void WebSocketSession<Stream>::on_accept(beast::error_code ec) {
  if (ec) {
    spdlog::info("ws handshake from {} failed: {}", remote_, ec.message());
    return;
  }
  ws_.text(true);
  id_ = ctx_->connections.add(this->weak_from_this());
  ctx_->counters.ws_opened.fetch_add(1, std::memory_order_relaxed);
  ctx_->counters.ws_live.fetch_add(1, std::memory_order_relaxed);
  open_ = true;
  spdlog::info("ws {} open from {}{}", id_, remote_, ctx_->tls ? " (tls)" : "");
  hello_deadline_.expires_after(ctx_->limits.hello_timeout);
  hello_deadline_.async_wait(
      beast::bind_front_handler(&WebSocketSession::on_hello_deadline, this->shared_from_this()));
  ctx_->frames->on_open(this->shared_from_this());
  do_read();
}

// A connection that never says hello holds a place of its address and of the server's for
// nothing: it goes, so that silent sockets cannot keep the players out.
template <class Stream>
void WebSocketSession<Stream>::on_hello_deadline(beast::error_code ec) {
  if (ec || welcomed_ || !open_ || close_requested_) return;
  ctx_->counters.ws_hello_timeouts.fetch_add(1, std::memory_order_relaxed);
  close_text_ = fmt::format("no hello within {} s", ctx_->limits.hello_timeout.count());
  reason_ = fmt::format("closed by the server (1008): {}", close_text_);
  on_close_request(CloseCode::policy_error);
}

template <class Stream>
void WebSocketSession<Stream>::welcomed() {
  net::post(ws_.get_executor(), [self = this->shared_from_this()] {
    self->welcomed_ = true;
    self->hello_deadline_.cancel();
  });
}

template <class Stream>
void WebSocketSession<Stream>::do_read() {
  ws_.async_read(buffer_,
                 beast::bind_front_handler(&WebSocketSession::on_read, this->shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_read(beast::error_code ec, std::size_t bytes) {
  if (ec) {
    if (!reason_.empty()) {
      // The server's own reason stands (it sent the close that ended this read).
    } else if (ec == websocket::error::closed) {
      auto r = ws_.reason();
      reason_ =
          fmt::format("the client closed it ({}{}{})", static_cast<int>(r.code),
                      r.reason.empty() ? "" : ": ", std::string(r.reason.data(), r.reason.size()));
    } else if (ec == websocket::error::message_too_big) {
      reason_ = fmt::format("a message over {} bytes (1009)", 2 * ctx_->limits.ws_message_max);
    } else if (ec == beast::error::timeout) {
      reason_ = fmt::format("idle for {} s (no frame, no pong)", ctx_->limits.idle_timeout.count());
    } else if (ec == net::error::operation_aborted) {
      reason_ = "the server stopped";
    } else {
      reason_ = "connection lost: " + ec.message();
    }
    return finish();
  }
  ctx_->counters.ws_messages_in.fetch_add(1, std::memory_order_relaxed);
  ctx_->counters.ws_bytes_in.fetch_add(bytes, std::memory_order_relaxed);
  if (!ws_.got_text()) {
    close(CloseCode::unsupported_data);
  } else if (!close_requested_) {  // a closing session takes no new work
    auto data = buffer_.cdata();
    ctx_->frames->on_text(this->shared_from_this(),
                          {static_cast<const char*>(data.data()), data.size()});
  }
  buffer_.consume(buffer_.size());
  do_read();  // also carries the close handshake through once a close frame is sent
}

template <class Stream>
void WebSocketSession<Stream>::finish() {
  if (!open_) return;
  open_ = false;
  queue_.clear();
  queued_bytes_ = 0;
  hello_deadline_.cancel();
  place_.release();  // the session may outlive its connection in other hands (the rooms')
  ctx_->counters.ws_live.fetch_sub(1, std::memory_order_relaxed);
  spdlog::info("ws {} closed: {}", id_, reason_);
  ctx_->frames->on_close(this->shared_from_this());
}

template <class Stream>
void WebSocketSession<Stream>::send(std::shared_ptr<const std::string> text) {
  auto op = beast::bind_front_handler(&WebSocketSession::on_send, this->shared_from_this(),
                                      std::move(text));
  net::post(ws_.get_executor(), std::move(op));
}

// One post for both: two posts from another thread leave room for a frame queued between them.
template <class Stream>
void WebSocketSession<Stream>::send_both(std::shared_ptr<const std::string> first,
                                         std::shared_ptr<const std::string> then) {
  net::post(ws_.get_executor(), [self = this->shared_from_this(), first = std::move(first),
                                 then = std::move(then)]() mutable {
    self->on_send(std::move(first));
    self->on_send(std::move(then));
  });
}

template <class Stream>
void WebSocketSession<Stream>::post(std::function<void()> fn) {
  net::post(ws_.get_executor(), std::move(fn));
}

template <class Stream>
void WebSocketSession<Stream>::on_send(std::shared_ptr<const std::string> text) {
  if (!open_ || close_requested_) return;
  const auto& limits = ctx_->limits;
  // A frame larger than the byte bound on its own still goes out: messages are never split.
  bool over_frames = queue_.size() >= limits.ws_queue_max;
  bool over_bytes = !queue_.empty() && queued_bytes_ + text->size() > limits.ws_queue_bytes;
  if (over_frames || over_bytes) {
    ctx_->counters.ws_dropped_slow.fetch_add(1, std::memory_order_relaxed);
    reason_ = fmt::format("dropped (1008): {} frames, {} bytes queued, the client is not reading",
                          queue_.size(), queued_bytes_);
    spdlog::warn("ws {} {}", id_, reason_);
    // What is queued will not be read in time either; only the frame in flight stays.
    queue_.erase(queue_.begin() + (writing_ ? 1 : 0), queue_.end());
    queued_bytes_ = queue_.empty() ? 0 : queue_.front()->size();
    return on_close_request(CloseCode::policy_error);
  }
  queued_bytes_ += text->size();
  queue_.push_back(std::move(text));
  if (!writing_) do_write();
}

template <class Stream>
void WebSocketSession<Stream>::do_write() {
  writing_ = true;
  ws_.async_write(net::buffer(*queue_.front()),
                  beast::bind_front_handler(&WebSocketSession::on_write, this->shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_write(beast::error_code ec, std::size_t bytes) {
  writing_ = false;
  if (ec) {
    if (reason_.empty() && !is_benign(ec)) reason_ = "write failed: " + ec.message();
    queue_.clear();
    queued_bytes_ = 0;
    return;  // the pending read ends too and calls finish()
  }
  ctx_->counters.ws_messages_out.fetch_add(1, std::memory_order_relaxed);
  ctx_->counters.ws_bytes_out.fetch_add(bytes, std::memory_order_relaxed);
  queued_bytes_ -= queue_.front()->size();
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (close_requested_) do_close();
}

template <class Stream>
void WebSocketSession<Stream>::close(CloseCode code) {
  net::post(ws_.get_executor(), beast::bind_front_handler(&WebSocketSession::on_close_request,
                                                          this->shared_from_this(), code));
}

template <class Stream>
void WebSocketSession<Stream>::on_close_request(CloseCode code) {
  if (!open_ || close_requested_) return;
  close_requested_ = true;
  close_code_ = code;
  if (reason_.empty())
    reason_ =
        fmt::format("closed by the server ({}: {})", static_cast<int>(code), close_words(code));
  if (!writing_) do_close();
}

template <class Stream>
void WebSocketSession<Stream>::do_close() {
  if (close_sent_ || !ws_.is_open()) return;
  close_sent_ = true;
  writing_ = true;
  ws_.async_close(
      websocket::close_reason(static_cast<websocket::close_code>(close_code_), close_text_),
      beast::bind_front_handler(&WebSocketSession::on_close, this->shared_from_this()));
}

template <class Stream>
void WebSocketSession<Stream>::on_close(beast::error_code ec) {
  writing_ = false;
  if (ec && !is_benign(ec)) spdlog::info("ws {} close: {}", id_, ec.message());
}

template class WebSocketSession<Socket>;
template class WebSocketSession<TlsStream>;

}  // namespace tanbo_server::server
