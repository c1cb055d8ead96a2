#include "server/net/probe.hpp"

#include "server/net/beast.hpp"

namespace tanbo::server {

bool probe_healthz(const std::string& host, std::uint16_t port, std::chrono::seconds timeout,
                   std::string& detail) {
  beast::error_code ec;
  auto address = net::ip::make_address(host, ec);
  if (ec) return detail = "bad address " + host, false;
  if (address.is_unspecified())
    address = address.is_v4() ? net::ip::address(net::ip::address_v4::loopback())
                              : net::ip::address(net::ip::address_v6::loopback());

  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::flat_buffer buffer;
  http::request<http::empty_body> req{http::verb::get, "/healthz", 11};
  req.set(http::field::host, address.to_string());
  http::response<http::string_body> res;
  beast::error_code result;

  // Asynchronous only so that the stream's deadline bounds every step.
  stream.expires_after(timeout);
  stream.async_connect(tcp::endpoint{address, port}, [&](beast::error_code e) {
    if (e) return void(result = e);
    http::async_write(stream, req, [&](beast::error_code e, std::size_t) {
      if (e) return void(result = e);
      http::async_read(stream, buffer, res, [&](beast::error_code e, std::size_t) { result = e; });
    });
  });
  ioc.run();
  if (result) return detail = result.message(), false;
  detail = std::to_string(res.result_int()) + " " + res.body();
  return res.result() == http::status::ok;
}

}  // namespace tanbo::server
