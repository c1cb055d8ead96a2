#include "server/server.hpp"

#include <spdlog/spdlog.h>

#include <nlohmann/json.hpp>
#include <utility>

#include "engine/core/registry.hpp"
#include "server/net/listener.hpp"
#include "server/net/static_files.hpp"
#include "server/net/tls.hpp"
#include "server/rooms/service.hpp"
#include "server/store/worker.hpp"

namespace tanbo_server::server {

Server::Server(const Config& config, std::shared_ptr<FrameHandler> frames)
    : config_(config),
      ctx_(std::make_shared<NetContext>(
          std::move(frames),
          Limits{config.ws_message_max, config.ws_queue_max, config.http_body_max,
                 std::chrono::seconds(config.idle_timeout), config.max_connections,
                 config.ws_queue_bytes, config.max_http, config.compression})),
      ioc_(static_cast<int>(config.threads)) {
  // The games' registry rides in the page (the `games` reply's list): the lobby is drawn as soon
  // as the page's code has run, without waiting for the WebSocket.
  nlohmann::json games = nlohmann::json::array();
  for (const auto* info : engine::all_games()) games.push_back(info->to_json());
  ctx_->web = std::make_shared<static_files::Site>(
      config.web_dir,
      std::vector<std::pair<std::string, std::string>>{{"tanbo-games", games.dump()}});
  ctx_->trusted_proxies = TrustedProxies(config.trusted_proxies);
  ctx_->allowed_origins = AllowedOrigins(config.allowed_origins);
  ctx_->limits.ws_per_address = config.ws_per_address;
  ctx_->limits.hello_timeout = std::chrono::seconds(config.hello_timeout);
  if (!config.tls_cert.empty()) ctx_->tls = make_server_tls(config.tls_cert, config.tls_key);
}

Server::Server(const Config& config, std::shared_ptr<RoomService> rooms)
    : Server(config, std::shared_ptr<FrameHandler>(rooms)) {
  ctx_->rooms = std::move(rooms);
}

Server::~Server() { stop(std::chrono::milliseconds(0)); }

void Server::start() {
  tcp::endpoint endpoint{net::ip::make_address(config_.bind), config_.port};
  listener_ = std::make_shared<Listener>(ioc_, endpoint, ctx_);
  port_ = listener_->local_endpoint().port();
  listener_->run();
  threads_.reserve(config_.threads);
  for (unsigned i = 0; i < config_.threads; ++i) threads_.emplace_back([this] { ioc_.run(); });
}

std::size_t Server::stop(std::chrono::milliseconds grace) {
  if (!listener_) return 0;
  listener_->stop();
  if (before_close_) std::exchange(before_close_, nullptr)();
  ctx_->connections.shutdown_all();
  std::size_t left = 0;
  if (!ctx_->connections.wait_empty(grace)) left = ctx_->connections.size();
  // With the acceptor closed and the connections gone the threads run out of work and return
  // by themselves; stop() cuts short whatever outlived the grace.
  ioc_.stop();
  for (auto& t : threads_) t.join();
  threads_.clear();
  if (before_store_stops_) std::exchange(before_store_stops_, nullptr)();
  if (ctx_->store) ctx_->store->stop();  // after the network and the rooms: nothing posts to it
  listener_.reset();
  return left;
}

}  // namespace tanbo_server::server
