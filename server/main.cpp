// tanbo-server: its flags, then its parts started in order (server/startup.hpp), run until a
// signal, and stopped.
#include <spdlog/spdlog.h>

#include <boost/asio/signal_set.hpp>
#include <csignal>
#include <iostream>

#include "server/config.hpp"
#include "server/net/probe.hpp"
#include "server/server.hpp"
#include "server/startup.hpp"
#include "server/version.hpp"

namespace {

using namespace tanbo_server::server;

int run(Config config) {
  startup::setup_logging(config);
  const auto descriptors = startup::fit_descriptors(config);
  // Installed before any thread starts, so an early signal is not fatal.
  boost::asio::io_context signal_ioc;
  boost::asio::signal_set signals(signal_ioc, SIGINT, SIGTERM);

  startup::Parts parts;
  for (startup::Step step : {startup::read_admin_token, startup::open_store, startup::make_rooms,
                             startup::join_cluster, startup::recover_rooms})
    if (int code = step(config, parts)) return code;
  Server server(config, parts.rooms);
  if (int code = startup::listen(config, parts, server)) return code;
  spdlog::info("tanbo-server {} listening on {}:{} ({} threads, data in {}, {} descriptors)",
               version(), config.bind, server.port(), config.threads, config.data_dir.string(),
               descriptors ? std::to_string(descriptors) : "unlimited");

  int signo = 0;
  signals.async_wait([&](const boost::system::error_code&, int s) { signo = s; });
  signal_ioc.run();

  spdlog::info("{} received: stopping", signo == SIGINT ? "SIGINT" : "SIGTERM");
  startup::stop(parts, server);
  spdlog::info("shutdown complete");
  spdlog::shutdown();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto outcome = parse_config(argc, argv);
  if (auto* err = std::get_if<ConfigError>(&outcome)) {
    std::cerr << "tanbo-server: " << err->message << "\nTry 'tanbo-server --help'.\n";
    return 2;
  }
  if (std::holds_alternative<HelpRequested>(outcome)) return std::cout << usage(), 0;
  if (std::holds_alternative<VersionRequested>(outcome))
    return std::cout << "tanbo-server " << version() << "\n", 0;

  const auto& config = std::get<Config>(outcome);
  if (config.healthcheck) {
    std::string detail;
    bool ok = probe_healthz(config.bind, config.port, std::chrono::seconds(3), detail,
                            !config.tls_cert.empty());
    (ok ? std::cout : std::cerr) << detail << "\n";
    return ok ? 0 : 1;
  }
  return run(config);
}
