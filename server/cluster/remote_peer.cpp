#include "server/cluster/remote_peer.hpp"

#include <boost/asio/post.hpp>
#include <future>
#include <utility>

#include "server/cluster/relay.hpp"

namespace tanbo_server::server::cluster {

RemoteTurns::RemoteTurns() : strand_(boost::asio::make_strand(pool_)) {}

RemoteTurns::~RemoteTurns() { finish(); }

void RemoteTurns::post(std::function<void()> fn) { boost::asio::post(strand_, std::move(fn)); }

void RemoteTurns::drain() {
  std::promise<void> ran;
  auto done = ran.get_future();
  post([&ran] { ran.set_value(); });
  done.wait();
}

void RemoteTurns::finish() { pool_.join(); }

RemotePeer::RemotePeer(std::weak_ptr<Relay> relay, std::string node, std::uint64_t peer,
                       std::uint64_t local_id)
    : relay_(std::move(relay)), node_(std::move(node)), peer_(peer), id_(local_id) {}

void RemotePeer::send(std::shared_ptr<const std::string> text) {
  if (auto r = relay_.lock()) r->send_to(node_, peer_, std::move(text));
}

void RemotePeer::send_both(std::shared_ptr<const std::string> first,
                           std::shared_ptr<const std::string> then) {
  if (auto r = relay_.lock()) r->send_to(node_, peer_, std::move(first), std::move(then));
}

void RemotePeer::close(CloseCode code) {
  if (auto r = relay_.lock()) r->close_on(node_, peer_, code);
}

void RemotePeer::post(std::function<void()> fn) {
  if (auto r = relay_.lock()) r->post_remote(std::move(fn));
}

}  // namespace tanbo_server::server::cluster
