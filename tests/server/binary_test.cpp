#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/net/frame_handler.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/child_process.hpp"
#include "tests/server/support/clients.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

TEST_CASE("tanbo-server with a bad flag or value exits 2 and says what is wrong",
          "[server][binary]") {
  using Row = std::tuple<std::vector<std::string>, std::vector<std::string>, std::string>;
  auto [args, env, expected] =
      GENERATE(table<std::vector<std::string>, std::vector<std::string>, std::string>({
          Row{{"--nope"}, {}, "unknown option '--nope'"},
          Row{{"--port", "99999"}, {}, "--port"},
          Row{{"--threads", "many"}, {}, "--threads"},
          Row{{}, {"TANBO_LOG_LEVEL=loud"}, "TANBO_LOG_LEVEL"},
      }));
  CAPTURE(args, env);
  ChildProcess p(TANBO_SERVER_BINARY, args, env);
  auto status = p.wait(5s);
  REQUIRE(status);
  CHECK(*status == 2);
  CHECK_THAT(p.stderr_text(), Catch::Contains(expected));
}

TEST_CASE("tanbo-server on SIGTERM or SIGINT closes its WebSockets and exits 0",
          "[server][binary]") {
  int signo = GENERATE(SIGTERM, SIGINT);
  CAPTURE(signo);
  DataDir dir;
  ChildProcess p(TANBO_SERVER_BINARY, {"--bind", "127.0.0.1", "--port", "0", "--threads", "2",
                                       "--data-dir", dir.path.string()});
  auto line = p.wait_for_line("listening on 127.0.0.1:", 10s);
  REQUIRE(line);
  auto port = std::stoi(line->substr(line->rfind(':') + 1));
  REQUIRE(port > 0);
  CHECK(std::filesystem::is_directory(dir.path));

  WsClient client(static_cast<std::uint16_t>(port));
  client.send("{}");
  REQUIRE(client.read().got == WsClient::Got::text);

  auto sent = std::chrono::steady_clock::now();
  p.signal(signo);
  auto f = client.read();
  CHECK(f.got == WsClient::Got::closed);
  CHECK(client.close_code() == static_cast<std::uint16_t>(CloseCode::going_away));

  auto status = p.wait(5s);
  REQUIRE(status);
  CHECK(*status == 0);
  CHECK(std::chrono::steady_clock::now() - sent < 5s);
  CHECK_THAT(p.stderr_text(), Catch::Contains("shutdown complete"));
}

TEST_CASE("tanbo-server --healthcheck exits 0 against a live server and 1 without one",
          "[server][binary]") {
  DataDir dir;
  ChildProcess server(TANBO_SERVER_BINARY, {"--bind", "127.0.0.1", "--port", "0", "--threads", "1",
                                            "--data-dir", dir.path.string()});
  auto line = server.wait_for_line("listening on 127.0.0.1:", 10s);
  REQUIRE(line);
  std::string port = line->substr(line->rfind(':') + 1);
  port = port.substr(0, port.find_first_not_of("0123456789"));

  SECTION("healthy") {
    ChildProcess probe(TANBO_SERVER_BINARY, {"--healthcheck", "--port", port});
    CHECK(probe.wait(5s) == std::optional<int>(0));
  }
  SECTION("nobody listening") {
    server.signal(SIGTERM);
    REQUIRE(server.wait(5s) == std::optional<int>(0));
    ChildProcess probe(TANBO_SERVER_BINARY, {"--healthcheck", "--port", port});
    CHECK(probe.wait(5s) == std::optional<int>(1));
  }
}
