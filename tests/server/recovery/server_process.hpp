#pragma once
// tanbo-server as a real process on an ephemeral loopback port over a data directory of its
// own, and the blocking helpers the persistence tests share.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/server/support/child_process.hpp"
#include "tests/server/support/clients.hpp"
#include "tests/server/support/protocol_client.hpp"

namespace tanbo_server::server::test {

struct DataDir {
  std::filesystem::path path = std::filesystem::temp_directory_path() /
                               ("tanbo-persist-" + std::to_string(std::random_device{}()));
  ~DataDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::filesystem::path db() const { return path / "tanbo.db"; }
};

// The port a server started with --bind 127.0.0.1 --port 0 logs it listens on; throws when no
// such line comes `within`.
inline std::uint16_t listening_port(ChildProcess& process, std::chrono::seconds within) {
  auto line = process.wait_for_line("listening on 127.0.0.1:", within);
  if (!line) {
    // A server that gave up has exited: reaped here, how it ended is in the message (one still
    // running is stopped and checked at the end of the test).
    process.wait(std::chrono::seconds(10));
    throw std::runtime_error("tanbo-server did not start, and " + process.ending() + ":\n" +
                             process.stderr_text());
  }
  std::string rest = line->substr(line->rfind(':') + 1);
  return static_cast<std::uint16_t>(
      std::stoi(rest.substr(0, rest.find_first_not_of("0123456789"))));
}

class ServerProcess {
 public:
  // Starts the server and waits until it listens; throws when it does not within 20 s.
  explicit ServerProcess(const DataDir& dir, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--bind",         "127.0.0.1",
                                  "--port",         "0",
                                  "--threads",      "2",
                                  "--room-threads", "2",
                                  "--data-dir",     dir.path.string(),
                                  "--rate",         "1000000",
                                  "--rate-burst",   "1000000",
                                  "--max-rooms",    "1000"};
    args.insert(args.end(), extra.begin(), extra.end());
    process_ = std::make_unique<ChildProcess>(TANBO_SERVER_BINARY, args);
    port_ = listening_port(*process_, std::chrono::seconds(20));
  }

  std::uint16_t port() const { return port_; }
  ChildProcess& process() { return *process_; }
  // kill -9: no shutdown at all.
  void kill() {
    process_->signal(SIGKILL);
    process_->wait(std::chrono::seconds(10));
  }
  // SIGTERM: the graceful stop; the exit status.
  std::optional<int> terminate() {
    process_->signal(SIGTERM);
    return process_->wait(std::chrono::seconds(10));
  }
  std::string log() const { return process_->stderr_text(); }
  // Whether a line holding `needle` comes within the time: a line written after an answer was
  // sent may reach the log's reader after the answer reaches the test.
  bool logged(const std::string& needle, std::chrono::seconds within = std::chrono::seconds(10)) {
    return process_->wait_for_line(needle, within).has_value();
  }

 private:
  std::unique_ptr<ChildProcess> process_;
  std::uint16_t port_ = 0;
};

inline nlohmann::json get_json(std::uint16_t port, const std::string& target) {
  auto r = http_get(port, target);
  if (r.status != 200)
    throw std::runtime_error("GET " + target + ": " + std::to_string(r.status) + " " + r.body);
  return nlohmann::json::parse(r.body);
}

// Reads messages until a `state` of version `at_least` or later; an `error` throws.
inline nlohmann::json state_at(ProtocolClient& c, std::uint64_t at_least) {
  for (;;) {
    auto m = c.next();
    if (m.at("type") == "error") throw std::runtime_error("error: " + m.dump());
    if (m.at("type") == "state" && m.at("version").get<std::uint64_t>() >= at_least) return m;
  }
}

// The room ids GET /api/rooms lists.
inline std::vector<std::string> listed_rooms(std::uint16_t port) {
  std::vector<std::string> out;
  const auto lobby = get_json(port, "/api/rooms");  // held: the loop below reads into it
  for (const auto& r : lobby.at("rooms")) out.push_back(r.at("room").get<std::string>());
  return out;
}

}  // namespace tanbo_server::server::test
