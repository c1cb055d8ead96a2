// Out of file descriptors: the real binary under a low `ulimit -n`, with sockets held open by
// the hundred. The server must keep serving newcomers, back off instead of spinning, and write
// a bounded number of log lines.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <vector>

#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

namespace {

// tanbo-server with its descriptor limit (soft and hard) set to `limit`.
std::unique_ptr<ChildProcess> limited_server(int limit, const DataDir& dir,
                                             std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"-c",
                                "ulimit -n " + std::to_string(limit) + " && exec \"$0\" \"$@\"",
                                TANBO_SERVER_BINARY,
                                "--bind",
                                "127.0.0.1",
                                "--port",
                                "0",
                                "--threads",
                                "2",
                                "--data-dir",
                                dir.path.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return std::make_unique<ChildProcess>("/bin/sh", args);
}

std::size_t lines(const std::string& text) {
  return std::size_t(std::count(text.begin(), text.end(), '\n'));
}

// Everything the server wrote so far, after waiting `within` for more.
std::string log_of(ChildProcess& server, std::chrono::milliseconds within = 500ms) {
  server.wait_for_line("\x01 never written", within);
  return server.stderr_text();
}

constexpr std::string_view kUpgrade =
    "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

}  // namespace

TEST_CASE("300 silent sockets at ulimit -n 200: newcomers are still served, the log stays short",
          "[server][limits][descriptors]") {
  DataDir dir;
  auto server = limited_server(200, dir);
  auto port = listening_port(*server, 20s);
  CHECK_THAT(server->stderr_text(), Catch::Contains("--max-connections 10000 does not fit"));
  CHECK_THAT(server->stderr_text(), Catch::Contains("--max-http-connections lowered"));
  std::vector<std::unique_ptr<RawTcp>> silent;
  for (int i = 0; i < 300; ++i) silent.push_back(std::make_unique<RawTcp>(port));
  // A player arriving now plays: the silent ones make room for it, not it for them.
  ProtocolClient player(port);
  CHECK(player.hello("Ana").at("player").at("name") == "Ana");
  auto metrics = http_get(port, "/metrics");
  REQUIRE(metrics.status == 200u);
  CHECK_THAT(metrics.body, !Catch::Contains("tanbo_http_evicted_total 0\n"));
  CHECK_THAT(metrics.body, Catch::Contains("process_max_fds 200"));
  silent.clear();
  const auto& log = log_of(*server);
  CHECK_THAT(log,
             Catch::Contains(": hello from "));  // the player's, read back: the log is all here
  CHECK(lines(log) < 40);
}

TEST_CASE("WebSockets past the descriptor limit: the listener backs off and logs once a second",
          "[server][limits][descriptors]") {
  DataDir dir;
  auto server = limited_server(150, dir);
  auto port = listening_port(*server, 20s);
  const auto before = lines(log_of(*server));
  const auto opened = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<RawTcp>> sockets;
  for (int i = 0; i < 200; ++i) {  // the kernel queues what the server cannot accept
    sockets.push_back(std::make_unique<RawTcp>(port));
    sockets.back()->send(kUpgrade);
  }
  REQUIRE(server->wait_for_line("accept failed", 60s));
  // Let go of half: the server accepts again within its longest back-off (1 s) and answers.
  sockets.resize(100);
  auto health = http_get(port, "/metrics");
  REQUIRE(health.status == 200u);
  auto failures = health.body.find("\ntanbo_accept_failures_total ");
  REQUIRE(failures != std::string::npos);
  CHECK(std::stod(health.body.substr(failures + 29)) >= 1);
  std::size_t accept_lines = 0;
  const auto& log = log_of(*server);
  for (std::size_t at = log.find("accept failed"); at != std::string::npos;
       at = log.find("accept failed", at + 1))
    ++accept_lines;
  // One line a second at most, over the time the failures could have lasted.
  const auto span =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - opened);
  CAPTURE(span.count());
  CHECK(accept_lines >= 1);
  CHECK(accept_lines <= std::size_t(span.count()) + 2);
  // Every connection opened is one line; the failures add a handful, never one per attempt.
  CHECK(lines(log) - before < 200 * 2 + 20);
}
