// tanbo-load: WebSocket load against a tanbo-server on this machine (docs/performance.md).
#include <sys/resource.h>

#include <iostream>
#include <string_view>
#include <vector>

#include "bench/load/load.hpp"

int main(int argc, char** argv) {
  using namespace tanbo_server::load;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  auto outcome = parse_options(args);
  if (std::holds_alternative<HelpRequested>(outcome)) {
    std::cout << usage();
    return 0;
  }
  if (auto* err = std::get_if<OptionsError>(&outcome)) {
    std::cerr << "tanbo-load: " << err->message << "\nTry 'tanbo-load --help'.\n";
    return 2;
  }
  const auto& options = std::get<Options>(outcome);
  // One descriptor per connection: take the hard limit, refuse what it cannot hold.
  rlimit fds{};
  getrlimit(RLIMIT_NOFILE, &fds);
  fds.rlim_cur = fds.rlim_max;
  setrlimit(RLIMIT_NOFILE, &fds);
  if (fds.rlim_cur != RLIM_INFINITY && rlim_t(options.connections()) + 64 > fds.rlim_cur) {
    std::cerr << "tanbo-load: " << options.connections() << " connections need more than the "
              << fds.rlim_cur << " file descriptors allowed (ulimit -n)\n";
    return 2;
  }
  try {
    auto report = run(options);
    std::cout << report.dump() << std::endl;
    return report.value("ok", false) ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "tanbo-load: " << e.what() << "\n";
    return 1;
  }
}
