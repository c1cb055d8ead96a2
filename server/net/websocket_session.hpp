#pragma once
#include <boost/asio/steady_timer.hpp>
#include <deque>
#include <memory>
#include <string>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

// One WebSocket connection on its own strand. Text frames go to the FrameHandler; outgoing
// frames wait in a queue bounded in frames and in bytes, with at most one write in flight.
// Stream is the plain Socket or the TLS stream, handed over by the HttpSession.
template <class Stream>
class WebSocketSession final : public WsPeer,
                               public Connection,
                               public std::enable_shared_from_this<WebSocketSession<Stream>> {
 public:
  // `remote`: ip:port, for the logs; `address`: the client's limit key (address.hpp), and
  // `place` the one it holds among that address's WebSockets, given back when the session ends.
  WebSocketSession(Stream&& stream, std::shared_ptr<NetContext> ctx, std::string remote,
                   std::string address, AddressPlace place);
  ~WebSocketSession() override;

  // Completes the handshake for an upgrade request already read.
  void run(http::request<http::string_body> req);

  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override;
  void send_both(std::shared_ptr<const std::string> first,
                 std::shared_ptr<const std::string> then) override;
  void close(CloseCode code) override;
  void shutdown() override { close(CloseCode::going_away); }
  std::string address() const override { return address_; }
  std::string user_agent() const override { return user_agent_; }
  void welcomed() override;
  void post(std::function<void()> fn) override;

 private:
  void on_accept(beast::error_code ec);
  void on_hello_deadline(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(std::shared_ptr<const std::string> text);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void on_close_request(CloseCode code);
  void do_close();
  void on_close(beast::error_code ec);
  void finish();

  websocket::stream<Stream> ws_;  // on the connection's strand (Strand, beast.hpp)
  beast::flat_buffer buffer_;
  std::shared_ptr<NetContext> ctx_;
  AddressPlace place_;  // after ctx_, which holds the counts it returns to
  net::steady_timer hello_deadline_;
  std::deque<std::shared_ptr<const std::string>> queue_;  // front() is in flight when writing_
  std::size_t queued_bytes_ = 0;                          // of every frame in queue_, shared or not
  std::uint64_t id_ = 0;
  std::string remote_;
  std::string address_;
  std::string user_agent_;  // set by run(), before any other thread knows the session
  std::string reason_;      // why the connection ended, for the close log line; first cause wins
  CloseCode close_code_ = CloseCode::normal;
  std::string close_text_;        // the close frame's reason, if any
  bool welcomed_ = false;         // the identity is established: no hello deadline
  bool open_ = false;             // handshake done, on_open called, on_close not yet
  bool writing_ = false;          // a write or the close frame is in flight
  bool close_requested_ = false;  // no more frames are queued; close once the queue drains
  bool close_sent_ = false;
};

}  // namespace tanbo_server::server
