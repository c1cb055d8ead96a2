#pragma once
// The network server: a listener and its sessions on a pool of threads sharing one io_context.
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "server/config.hpp"
#include "server/net/context.hpp"

namespace tanbo_server::server {

class Listener;

class Server {
 public:
  Server(const Config& config, std::shared_ptr<FrameHandler> frames);
  // The rooms answer the WebSockets, and the API reads the lobby and the accounts there.
  Server(const Config& config, std::shared_ptr<RoomService> rooms);
  ~Server();  // stop(0) if still running
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The store the API reads (and the rooms write), before start(); stop() stops it after the
  // network, so every session's last store job is answered first.
  void use_store(std::shared_ptr<store::StoreWorker> worker) { ctx_->store = std::move(worker); }
  // The operators' bearer token (--admin-token-file), before start(); empty: no admin API.
  void use_admin_token(std::string token) { ctx_->admin_token = std::move(token); }
  // Runs in stop() once the network is down and before the store stops: the rooms drain there,
  // so their last journal entries still reach the store.
  void before_store_stops(std::function<void()> f) { before_store_stops_ = std::move(f); }
  // Runs in stop() once nothing new is accepted and before the connections close: the rooms
  // finish the writes in flight there and send their states, which then leave ahead of the
  // close frames.
  void before_connections_close(std::function<void()> f) { before_close_ = std::move(f); }

  // Binds and starts config.threads threads; throws boost::system::system_error on failure.
  void start();
  // The bound port (the kernel's choice when config.port was 0).
  std::uint16_t port() const { return port_; }
  const NetContext& context() const { return *ctx_; }

  // Stops accepting, closes every connection politely (WebSocket: queued frames, then
  // going_away), waits up to `grace` for them, then stops the rest and joins the threads.
  // Returns how many connections were still open when the grace ran out. Idempotent.
  std::size_t stop(std::chrono::milliseconds grace);

 private:
  Config config_;
  std::shared_ptr<NetContext> ctx_;
  boost::asio::io_context ioc_;
  std::shared_ptr<Listener> listener_;
  std::vector<std::thread> threads_;
  std::uint16_t port_ = 0;
  std::function<void()> before_store_stops_;
  std::function<void()> before_close_;
};

}  // namespace tanbo_server::server
