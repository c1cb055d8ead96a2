#include "server/net/http_session.hpp"

#include <spdlog/spdlog.h>

#include <sstream>
#include <type_traits>

#include "server/metrics/log_budget.hpp"
#include "server/net/address.hpp"
#include "server/net/request_checks.hpp"
#include "server/net/routes.hpp"
#include "server/net/security_headers.hpp"
#include "server/net/websocket_session.hpp"

namespace tanbo_server::server {

namespace {
constexpr auto kReadTimeout = std::chrono::seconds(30);  // the whole request, headers and body
constexpr std::uint32_t kHeaderLimit = 16 * 1024;        // beyond: 431, then close

template <class Stream>
Stream open_stream(Socket&& socket, const NetContext& ctx) {
  if constexpr (HttpSession<Stream>::kTls)
    return Stream(std::move(socket), *ctx.tls);
  else
    return Stream(std::move(socket));
}

tcp::endpoint remote_of(const Socket& socket) {
  beast::error_code ec;
  auto ep = socket.remote_endpoint(ec);
  return ec ? tcp::endpoint() : ep;
}

std::string text_of(const tcp::endpoint& ep) {
  std::ostringstream s;
  if (ep.port() != 0) s << ep;
  return s.str();
}
}  // namespace

template <class Stream>
HttpSession<Stream>::HttpSession(Socket&& socket, std::shared_ptr<NetContext> ctx)
    : stream_(open_stream<Stream>(std::move(socket), *ctx)), ctx_(std::move(ctx)) {
  peer_ = remote_of(beast::get_lowest_layer(stream_).socket());
  remote_ = text_of(peer_);
}

template <class Stream>
HttpSession<Stream>::~HttpSession() {
  if (id_ != 0) ctx_->connections.remove(id_);
  ctx_->http_slots.release(slot_);
}

template <class Stream>
void HttpSession<Stream>::run() {
  net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    self->id_ = self->ctx_->connections.add(self);
    std::shared_ptr<Connection> evicted;
    self->slot_ = self->ctx_->http_slots.take(self, evicted);
    if (evicted) {
      self->ctx_->counters.http_evicted.fetch_add(1, std::memory_order_relaxed);
      evicted->shutdown();
    }
    if constexpr (kTls) {
      beast::get_lowest_layer(self->stream_).expires_after(kReadTimeout);
      self->reading_ = true;
      self->stream_.async_handshake(net::ssl::stream_base::server,
                                    beast::bind_front_handler(&HttpSession::on_handshake, self));
    } else {
      self->do_read();
    }
  });
}

template <class Stream>
void HttpSession<Stream>::shutdown() {
  net::post(stream_.get_executor(), [self = this->shared_from_this()] {
    self->stopping_ = true;
    if (self->reading_) beast::get_lowest_layer(self->stream_).cancel();
  });
}

template <class Stream>
void HttpSession<Stream>::on_handshake(beast::error_code ec) {
  reading_ = false;
  if (ec) {
    // A plain-HTTP client on the TLS port ends here, as does a scanner: one line, no answer.
    ctx_->counters.tls_failed.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("tls handshake from {} failed: {}", remote_, ec.message());
    return;
  }
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_read() {
  if (stopping_) return do_close();
  parser_.emplace();
  parser_->body_limit(ctx_->limits.http_body_max);
  parser_->header_limit(kHeaderLimit);
  beast::get_lowest_layer(stream_).expires_after(kReadTimeout);
  reading_ = true;
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpSession::on_read, this->shared_from_this()));
}

template <class Stream>
void HttpSession<Stream>::on_read(beast::error_code ec, std::size_t) {
  reading_ = false;
  if (ec == http::error::end_of_stream) return do_close();
  if (ec == http::error::header_limit) {
    ctx_->counters.headers_too_big.fetch_add(1, std::memory_order_relaxed);
    http::response<http::string_body> res{http::status::request_header_fields_too_large, 11};
    res.set(http::field::content_type, "text/plain");
    res.body() = "request headers over " + std::to_string(kHeaderLimit / 1024) + " KiB\n";
    res.keep_alive(false);
    res.prepare_payload();
    return do_write(std::move(res));
  }
  if (ec) {
    if (!is_benign(ec)) spdlog::debug("http {} read: {}", id_, ec.message());
    return;
  }
  ctx_->counters.http_requests.fetch_add(1, std::memory_order_relaxed);

  if (auto refusal = refusal_of(parser_->get(), *ctx_, remote_))
    return do_write(std::move(*refusal));
  if (websocket::is_upgrade(parser_->get()) && target_path(parser_->get().target()) == "/ws")
    return upgrade();
  if (is_deferred(target_path(parser_->get().target()))) {
    // The answer comes from the store's thread; the write belongs to this session's executor.
    std::string address = limit_address();
    handle_deferred(
        parser_->release(), *ctx_, std::move(address),
        [self = this->shared_from_this()](http::response<http::string_body> res) {
          net::post(self->stream_.get_executor(),
                    [self, res = std::move(res)]() mutable { self->do_write(std::move(res)); });
        });
    return;
  }
  do_write(handle_request(parser_->release(), *ctx_));
}

template <class Stream>
void HttpSession<Stream>::upgrade() {
  const auto& req = parser_->get();
  auto refuse = [&](http::status status, std::string_view why) {
    if (metrics::connection_refusal_log().take())
      spdlog::warn("http {}: WebSocket from {} refused: {}", id_, remote_, why);
    auto res = error_response(req, status, "too_many_connections", why);
    res.keep_alive(false);
    do_write(std::move(res));
  };
  if (ctx_->counters.ws_live.load(std::memory_order_relaxed) >= ctx_->limits.max_connections) {
    ctx_->counters.ws_refused.fetch_add(1, std::memory_order_relaxed);
    return refuse(http::status::service_unavailable,
                  fmt::format("{} connections open", ctx_->limits.max_connections));
  }
  std::string address = limit_address();
  auto place = ctx_->ws_addresses.take(address, ctx_->limits.ws_per_address);
  if (!place) {
    ctx_->counters.ws_refused_address.fetch_add(1, std::memory_order_relaxed);
    return refuse(http::status::too_many_requests,
                  fmt::format("{} connections open from {}", ctx_->limits.ws_per_address, address));
  }
  beast::get_lowest_layer(stream_).expires_never();   // the WebSocket sets its own timeouts
  ctx_->http_slots.release(std::exchange(slot_, 0));  // WebSockets have a limit of their own
  auto start = [&]<class WsStream>(WsStream&& ws_stream) {
    std::make_shared<WebSocketSession<WsStream>>(std::move(ws_stream), ctx_, remote_,
                                                 std::move(address), std::move(*place))
        ->run(parser_->release());
  };
  // A plain connection hands over the socket alone: the WebSocket has timers of its own, and
  // beast::basic_stream's (its shared state, its timer checked at every read and write) cost a
  // few thousand instructions per move.
  if constexpr (std::is_same_v<Stream, TcpStream>)
    start(stream_.release_socket());
  else
    start(std::move(stream_));
}

template <class Stream>
std::string HttpSession<Stream>::limit_address() const {
  const auto& req = parser_->get();
  auto forwarded = req.find("X-Forwarded-For");
  auto client =
      client_of(peer_.address(),
                forwarded == req.end() ? std::string_view() : std::string_view(forwarded->value()),
                ctx_->trusted_proxies);
  // The machine itself (tests, benchmarks, the operator's tools) is never limited by address.
  return client.is_loopback() ? "" : limit_key(client);
}

template <class Stream>
void HttpSession<Stream>::do_write(http::response<http::string_body> res) {
  set_security_headers(res, kTls);
  bool keep_alive = res.keep_alive();
  beast::async_write(
      stream_, http::message_generator(std::move(res)),
      beast::bind_front_handler(&HttpSession::on_write, this->shared_from_this(), keep_alive));
}

template <class Stream>
void HttpSession<Stream>::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) {
    if (!is_benign(ec)) spdlog::debug("http {} write: {}", id_, ec.message());
    return;
  }
  if (!keep_alive) return do_close();
  do_read();
}

template <class Stream>
void HttpSession<Stream>::do_close() {
  if constexpr (kTls) {
    // close_notify, bounded: a peer that never answers it must not hold the session.
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {});
  } else {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }
}

template class HttpSession<TcpStream>;
template class HttpSession<TlsStream>;

}  // namespace tanbo_server::server
