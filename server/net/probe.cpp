#include "server/net/probe.hpp"

#include <boost/beast/ssl.hpp>

#include "server/net/beast.hpp"
#include "server/net/tls.hpp"

namespace tanbo_server::server {

bool probe_healthz(const std::string& host, std::uint16_t port, std::chrono::seconds timeout,
                   std::string& detail, bool tls) {
  beast::error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (ec) return detail = "bad address " + host, false;
  if (address.is_unspecified())
    address = address.is_v4() ? net::ip::address(net::ip::address_v4::loopback())
                              : net::ip::address(net::ip::address_v6::loopback());

  net::io_context ioc;
  beast::flat_buffer buffer;
  http::request<http::empty_body> req{http::verb::get, "/healthz", 11};
  req.set(http::field::host, address.to_string());
  http::response<http::string_body> res;
  beast::error_code result;

  // Asynchronous only so that the stream's deadline bounds every step.
  auto exchange = [&](auto& stream, auto&& handshake) {
    auto& tcp_layer = beast::get_lowest_layer(stream);
    tcp_layer.expires_after(timeout);
    tcp_layer.async_connect(tcp::endpoint{address, port}, [&](beast::error_code e) {
      if (e) return void(result = e);
      handshake([&](beast::error_code e) {
        if (e) return void(result = e);
        http::async_write(stream, req, [&](beast::error_code e, std::size_t) {
          if (e) return void(result = e);
          http::async_read(stream, buffer, res,
                           [&](beast::error_code e, std::size_t) { result = e; });
        });
      });
    });
    ioc.run();
  };
  if (tls) {
    auto ctx = make_probe_tls();
    beast::ssl_stream<beast::tcp_stream> stream(ioc, *ctx);
    exchange(stream, [&](auto&& next) {
      stream.async_handshake(net::ssl::stream_base::client, std::move(next));
    });
  } else {
    beast::tcp_stream stream(ioc);
    exchange(stream, [](auto&& next) { next(beast::error_code{}); });
  }
  if (result) return detail = result.message(), false;
  detail = std::to_string(res.result_int()) + " " + res.body();
  return res.result() == http::status::ok;
}

}  // namespace tanbo_server::server
