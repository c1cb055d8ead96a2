#pragma once
#include <deque>
#include <memory>
#include <string>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo::server {

// One WebSocket connection on its own strand. Text frames go to the FrameHandler; outgoing
// frames wait in a bounded queue with at most one write in flight.
class WebSocketSession final : public WsPeer,
                               public Connection,
                               public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket&& socket, std::shared_ptr<NetContext> ctx);
  ~WebSocketSession() override;

  // Completes the handshake for an upgrade request already read.
  void run(http::request<http::string_body> req);

  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override;
  void close(CloseCode code) override;
  void shutdown() override { close(CloseCode::going_away); }

 private:
  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> text);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void on_close_request(CloseCode code);
  void do_close();
  void on_close(beast::error_code ec);
  void finish();

  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<NetContext> ctx_;
  std::deque<std::shared_ptr<const std::string>> queue_;  // front() is in flight when writing_
  std::uint64_t id_ = 0;
  std::string remote_;
  CloseCode close_code_ = CloseCode::normal;
  bool open_ = false;             // handshake done, on_open called, on_close not yet
  bool writing_ = false;          // a write or the close frame is in flight
  bool close_requested_ = false;  // no more frames are queued; close once the queue drains
  bool close_sent_ = false;
};

}  // namespace tanbo::server
