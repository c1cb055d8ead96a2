#include "server/net/listener.hpp"

#include <spdlog/spdlog.h>

#include <sstream>

#include "server/net/http_session.hpp"

namespace tanbo::server {
namespace {

void check(const beast::error_code& ec, const char* what, const tcp::endpoint& ep) {
  if (ec) {
    std::ostringstream where;
    where << what << ' ' << ep;
    throw boost::system::system_error(ec, where.str());
  }
}

}  // namespace

Listener::Listener(net::io_context& ioc, const tcp::endpoint& endpoint,
                   std::shared_ptr<NetContext> ctx)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), ctx_(std::move(ctx)) {
  beast::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  check(ec, "open", endpoint);
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  check(ec, "set_option", endpoint);
  acceptor_.bind(endpoint, ec);
  check(ec, "bind", endpoint);
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
  check(ec, "listen", endpoint);
  local_ = acceptor_.local_endpoint();
}

void Listener::run() {
  net::dispatch(acceptor_.get_executor(),
                beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    self->stopped_ = true;
    beast::error_code ec;
    self->acceptor_.close(ec);
  });
}

void Listener::do_accept() {
  if (stopped_) return;
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
  if (stopped_ || ec == net::error::operation_aborted) return;
  if (ec) {
    // e.g. out of file descriptors: this connection is lost, the listener carries on.
    spdlog::warn("accept failed: {}", ec.message());
  } else {
    // Small frames must leave at once: without it a state waits on the peer's delayed ACK.
    socket.set_option(tcp::no_delay(true), ec);
    if (ctx_->tls)
      std::make_shared<TlsHttpSession>(std::move(socket), ctx_)->run();
    else
      std::make_shared<PlainHttpSession>(std::move(socket), ctx_)->run();
  }
  do_accept();
}

}  // namespace tanbo::server
