#include "server/net/listener.hpp"

#include <spdlog/spdlog.h>

#include <cstring>
#include <sstream>

#include "server/net/http_session.hpp"

namespace tanbo_server::server {
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
    : ioc_(ioc),
      acceptor_(net::make_strand(ioc)),
      ctx_(std::move(ctx)),
      retry_(acceptor_.get_executor()) {
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
    self->retry_.cancel();
    beast::error_code ec;
    self->acceptor_.close(ec);
  });
}

void Listener::do_accept() {
  if (stopped_) return;
  acceptor_.async_accept(net::make_strand(ioc_),
                         beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, Socket socket) {
  if (stopped_ || ec == net::error::operation_aborted) return;
  if (ec) return back_off(ec);
  delay_ = std::chrono::milliseconds(0);
  // Small frames must leave at once: without it a state waits on the peer's delayed ACK.
  socket.set_option(tcp::no_delay(true), ec);
  if (ctx_->tls)
    std::make_shared<TlsHttpSession>(std::move(socket), ctx_)->run();
  else
    std::make_shared<PlainHttpSession>(std::move(socket), ctx_)->run();
  do_accept();
}

// Accept errors are the system's (EMFILE, ENFILE, ENOBUFS...), named by strerror: no virtual call
// through an error category, whose first sanitizer type check needs a descriptor of its own.
void Listener::back_off(const beast::error_code& ec) {
  using namespace std::chrono;
  constexpr auto kFirst = milliseconds(10), kMost = milliseconds(1000);
  ctx_->counters.accept_failed.fetch_add(1, std::memory_order_relaxed);
  delay_ = std::min(kMost, delay_ == milliseconds(0) ? kFirst : 2 * delay_);
  ++failed_unlogged_;
  const auto now = steady_clock::now();
  if (now - logged_at_ >= seconds(1)) {
    spdlog::warn("accept failed {} times in the last second or more: {}; next try in {} ms",
                 failed_unlogged_, std::strerror(ec.value()), delay_.count());
    failed_unlogged_ = 0;
    logged_at_ = now;
  }
  retry_.expires_after(delay_);
  retry_.async_wait([self = shared_from_this()](beast::error_code e) {
    if (!e) self->do_accept();
  });
}

}  // namespace tanbo_server::server
