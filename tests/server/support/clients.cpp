#include "tests/server/support/clients.hpp"

#include "server/net/beast.hpp"

namespace tanbo_server::server::test {
namespace {

tcp::endpoint loopback(std::uint16_t port) { return {net::ip::make_address_v4("127.0.0.1"), port}; }

void check(const beast::error_code& ec, const char* what) {
  if (ec) throw boost::system::system_error(ec, what);
}

template <class Message>
std::map<std::string, std::string> headers_of(const Message& m) {
  std::map<std::string, std::string> out;
  for (const auto& field : m) {
    std::string name(field.name_string());
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out[name] = std::string(field.value());
  }
  return out;
}

HttpReply reply_of(const http::response<http::string_body>& res) {
  return {res.result_int(),
          std::string(res[http::field::content_type]),
          res.body(),
          std::string(res[http::field::retry_after]),
          std::string(res[http::field::content_disposition]),
          headers_of(res)};
}

// Writes `req` on a fresh connection and reads the answer.
HttpReply exchange(std::uint16_t port, http::request<http::string_body>& req) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::flat_buffer buffer;
  req.prepare_payload();
  req.keep_alive(false);
  http::response_parser<http::string_body> parser;
  if (req.method() == http::verb::head) parser.skip(true);  // no body follows its length
  beast::error_code result;

  stream.expires_after(kClientTimeout);
  stream.async_connect(loopback(port), [&](beast::error_code ec) {
    if (ec) return void(result = ec);
    http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
      if (ec) return void(result = ec);
      http::async_read(stream, buffer, parser,
                       [&](beast::error_code ec, std::size_t) { result = ec; });
    });
  });
  ioc.run();
  check(result, "http request");
  return reply_of(parser.get());
}

}  // namespace

HttpReply http_exchange(std::uint16_t port, std::string_view method, std::string_view target,
                        const Headers& headers, std::string_view body) {
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  return exchange(port, req);
}

HttpReply http_request(std::uint16_t port, std::string_view method, std::string_view target,
                       std::string_view authorization, std::string_view body,
                       std::string_view forwarded_for) {
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!authorization.empty()) req.set(http::field::authorization, authorization);
  if (!forwarded_for.empty()) req.set("X-Forwarded-For", forwarded_for);
  if (!body.empty()) {
    req.set(http::field::content_type, "application/json");
    req.body() = body;
  }
  return exchange(port, req);
}

struct WsClient::Impl {
  // Runs one asynchronous operation to completion, bounded by `timeout` from its start.
  // The deadline is the TCP stream's, set per operation: the WebSocket stream's own idle timer
  // would run between operations too, and close a connection a test merely left unread for a
  // while as soon as the context ran again.
  template <class Start>
  beast::error_code run(Start start) {
    auto& tcp_layer = beast::get_lowest_layer(ws);
    tcp_layer.expires_after(timeout);
    bool done = false;
    beast::error_code result;
    start([&](beast::error_code ec, auto&&...) { result = ec, done = true; });
    ioc.restart();
    while (!done && ioc.run_one() != 0) {
    }
    tcp_layer.expires_never();
    return done ? result : net::error::would_block;
  }

  // Connects and upgrades; an answer other than 101 throws WsRefused.
  void open(std::uint16_t port, std::string_view target, const Headers& headers) {
    auto& tcp_layer = beast::get_lowest_layer(ws);
    check(run([&](auto h) { tcp_layer.async_connect(loopback(port), h); }), "ws connect");
    ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& r) {
      for (const auto& [name, value] : headers) r.set(name, value);
    }));
    websocket::response_type res;
    auto ec = run([&](auto h) { ws.async_handshake(res, "127.0.0.1", target, h); });
    upgrade = reply_of(res);
    if (ec == websocket::error::upgrade_declined) throw WsRefused(upgrade);
    check(ec, "ws handshake");
  }

  std::chrono::milliseconds timeout = kClientTimeout;
  net::io_context ioc;
  websocket::stream<beast::tcp_stream> ws{ioc};
  beast::flat_buffer buffer;
  HttpReply upgrade;
};

WsClient::WsClient(std::uint16_t port, std::string_view target, std::string forwarded_for)
    : impl_(std::make_unique<Impl>()) {
  Headers headers;
  if (!forwarded_for.empty()) headers.emplace_back("X-Forwarded-For", std::move(forwarded_for));
  impl_->open(port, target, headers);
}

WsClient::WsClient(std::uint16_t port, const Headers& headers) : impl_(std::make_unique<Impl>()) {
  impl_->open(port, "/ws", headers);
}

WsClient::~WsClient() = default;

void WsClient::send(std::string_view text) {
  impl_->ws.text(true);
  check(impl_->run([&](auto h) { impl_->ws.async_write(net::buffer(text), h); }), "ws write");
}

void WsClient::send_binary(std::string_view bytes) {
  impl_->ws.binary(true);
  check(impl_->run([&](auto h) { impl_->ws.async_write(net::buffer(bytes), h); }), "ws write");
}

WsClient::Frame WsClient::read() {
  auto& buffer = impl_->buffer;
  buffer.consume(buffer.size());
  auto ec = impl_->run([&](auto h) { impl_->ws.async_read(buffer, h); });
  // A close frame counts even when the server drops the TCP connection before our reply.
  if (ec == websocket::error::closed || (ec && impl_->ws.reason().code != 0))
    return {Got::closed, ec.message()};
  if (ec) return {Got::failed, ec.message()};
  return {Got::text, beast::buffers_to_string(buffer.cdata())};
}

void WsClient::set_timeout(std::chrono::milliseconds limit) { impl_->timeout = limit; }

std::uint16_t WsClient::close_code() const { return impl_->ws.reason().code; }

std::string WsClient::close_reason() const {
  const auto& reason = impl_->ws.reason().reason;
  return std::string(reason.data(), reason.size());
}

const HttpReply& WsClient::upgrade_reply() const { return impl_->upgrade; }

void WsClient::close() {
  if (impl_->ws.is_open())
    impl_->run([&](auto h) { impl_->ws.async_close(websocket::close_code::normal, h); });
}

}  // namespace tanbo_server::server::test
