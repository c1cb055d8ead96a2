#pragma once
#include <memory>
#include <optional>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo::server {

// One HTTP/1.1 connection: reads a request, answers it, repeats while keep-alive lasts. A
// WebSocket upgrade to /ws hands the socket over to a WebSocketSession.
class HttpSession final : public Connection, public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, std::shared_ptr<NetContext> ctx);
  ~HttpSession() override;

  void run();
  void shutdown() override;

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void do_write(http::message_generator msg);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t bytes);
  void do_close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::shared_ptr<NetContext> ctx_;
  std::uint64_t id_ = 0;
  bool reading_ = false;   // a read is pending: shutdown may cancel it
  bool stopping_ = false;  // answer what is in hand, then close
};

}  // namespace tanbo::server
