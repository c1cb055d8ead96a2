#pragma once
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <memory>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

// Accepts connections, each onto its own strand, and hands them to an HttpSession. Out of
// descriptors (or kernel memory) it backs off, waiting longer after each failure up to a second,
// and logs the failures at most once a second with their count: retrying at once would spin a
// core and write a line per attempt while nobody can be served anyway.
class Listener : public std::enable_shared_from_this<Listener> {
 public:
  // Opens, binds and listens; throws boost::system::system_error naming the step that failed.
  Listener(net::io_context& ioc, const tcp::endpoint& endpoint, std::shared_ptr<NetContext> ctx);

  tcp::endpoint local_endpoint() const { return local_; }
  void run();
  // Any thread: stop accepting. Open connections are not touched.
  void stop();

 private:
  void do_accept();
  void on_accept(beast::error_code ec, Socket socket);
  void back_off(const beast::error_code& ec);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  tcp::endpoint local_;
  std::shared_ptr<NetContext> ctx_;
  // Touched only on the acceptor's strand.
  bool stopped_ = false;
  net::steady_timer retry_;
  std::chrono::milliseconds delay_{0};  // the back-off now; 0 after a success
  std::uint64_t failed_unlogged_ = 0;
  std::chrono::steady_clock::time_point logged_at_{};
};

}  // namespace tanbo_server::server
