#pragma once
#include <memory>

#include "server/net/beast.hpp"
#include "server/net/context.hpp"

namespace tanbo::server {

// Accepts connections, each onto its own strand, and hands them to an HttpSession.
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
  void on_accept(beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  tcp::endpoint local_;
  std::shared_ptr<NetContext> ctx_;
  bool stopped_ = false;  // touched only on the acceptor's strand
};

}  // namespace tanbo::server
