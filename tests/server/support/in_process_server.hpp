#pragma once
// A server started in this process on an ephemeral loopback port, stopped on destruction.
#include <memory>

#include "server/config.hpp"
#include "server/net/frame_handler.hpp"
#include "server/server.hpp"

namespace tanbo_server::server::test {

// 127.0.0.1, port 0, two threads: the shape every in-process test starts from.
Config loopback_config();

class InProcessServer {
 public:
  explicit InProcessServer(
      Config config = loopback_config(),
      std::shared_ptr<FrameHandler> frames = std::make_shared<UnknownTypeHandler>());
  // The rooms answer the WebSockets and the API's calls about rooms and accounts.
  InProcessServer(Config config, std::shared_ptr<RoomService> rooms);
  std::uint16_t port() const { return server.port(); }

  Config config;
  Server server;
};

}  // namespace tanbo_server::server::test
