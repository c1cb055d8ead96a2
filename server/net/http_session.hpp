#pragma once
#include <boost/beast/ssl.hpp>
#include <memory>
#include <optional>
#include <string>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

using TlsStream = beast::ssl_stream<TcpStream>;

// One HTTP/1.1 connection: reads a request, answers it, repeats while keep-alive lasts. A
// WebSocket upgrade to /ws hands the stream over to a WebSocketSession. Stream is
// TcpStream or TlsStream (which first completes the TLS handshake).
template <class Stream>
class HttpSession final : public Connection,
                          public std::enable_shared_from_this<HttpSession<Stream>> {
 public:
  static constexpr bool kTls = std::is_same_v<Stream, TlsStream>;

  HttpSession(Socket&& socket, std::shared_ptr<NetContext> ctx);
  ~HttpSession() override;

  void run();
  void shutdown() override;

 private:
  void on_handshake(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  // Hands the stream over to a WebSocketSession, or refuses the upgrade (503, 429).
  void upgrade();
  // Every answer goes out here, with the security headers (security_headers.hpp).
  void do_write(http::response<http::string_body> res);
  // The client's address as the per-address limits count it (empty: this machine, unlimited).
  std::string limit_address() const;
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();

  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<NetContext> ctx_;
  std::uint64_t id_ = 0;
  std::uint64_t slot_ = 0;  // in ctx_->http_slots, until the upgrade
  tcp::endpoint peer_;
  std::string remote_;     // peer_ as text, for the logs
  bool reading_ = false;   // a read (or the handshake) is pending: shutdown may cancel it
  bool stopping_ = false;  // answer what is in hand, then close
};

using PlainHttpSession = HttpSession<TcpStream>;
using TlsHttpSession = HttpSession<TlsStream>;

}  // namespace tanbo_server::server
