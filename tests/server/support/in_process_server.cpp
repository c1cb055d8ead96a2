#include "tests/server/support/in_process_server.hpp"

#include <spdlog/spdlog.h>

namespace tanbo_server::server::test {

Config loopback_config() {
  Config c;
  c.bind = "127.0.0.1";
  c.port = 0;
  c.threads = 2;
  return c;
}

InProcessServer::InProcessServer(Config c, std::shared_ptr<FrameHandler> frames)
    : config(std::move(c)), server(config, std::move(frames)) {
  spdlog::set_level(spdlog::level::err);  // the tests check behaviour, not log lines
  server.start();
}

InProcessServer::InProcessServer(Config c, std::shared_ptr<RoomService> rooms)
    : config(std::move(c)), server(config, std::move(rooms)) {
  spdlog::set_level(spdlog::level::err);
  server.start();
}

}  // namespace tanbo_server::server::test
