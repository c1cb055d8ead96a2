// docs/operations.md, "Limits": the WebSockets one address may hold (--ws-per-address) and the
// time a connection has to say hello (--hello-timeout), against a real server process. Behind a
// trusted proxy (the tests stand for one on loopback) each X-Forwarded-For address is a client.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "tests/server/net/edge_support.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

namespace {

// A WebSocket from `address` behind the proxy (empty: from this machine), or null when refused;
// a refusal must be 429 too_many_connections.
std::unique_ptr<WsClient> connect_from(std::uint16_t port, const std::string& address) {
  Headers headers;
  if (!address.empty()) headers.emplace_back("X-Forwarded-For", address);
  try {
    return std::make_unique<WsClient>(port, headers);
  } catch (const WsRefused& refused) {
    CHECK(refused.reply.status == 429);
    auto body = nlohmann::json::parse(refused.reply.body);
    CHECK(body.at("error").at("code") == "too_many_connections");
    CHECK(body.at("status") == 429);
    return nullptr;
  }
}

// Opens sockets from `address` until one is refused; returns those that opened.
std::vector<std::unique_ptr<WsClient>> fill(std::uint16_t port, const std::string& address,
                                            std::size_t at_most) {
  std::vector<std::unique_ptr<WsClient>> open;
  while (open.size() < at_most)
    if (auto c = connect_from(port, address))
      open.push_back(std::move(c));
    else
      break;
  return open;
}

}  // namespace

TEST_CASE("one address holds at most --ws-per-address WebSockets, and another still plays",
          "[net][limits][ws_per_address]") {
  DataDir dir;
  ServerProcess server(
      dir, {"--max-connections", "20", "--ws-per-address", "5", "--trusted-proxies", "127.0.0.1"});
  const std::string flooder = "203.0.113.7";
  std::vector<std::unique_ptr<WsClient>> silent;
  int refused = 0;
  for (int i = 0; i < 20; ++i)
    if (auto c = connect_from(server.port(), flooder))
      silent.push_back(std::move(c));
    else
      ++refused;
  CHECK(silent.size() == 5);
  CHECK(refused == 15);
  CHECK(metric(server.port(), "tanbo_connections_refused_per_address_total") == 15);
  CHECK(metric(server.port(), "tanbo_connections") == 5);
  CHECK(server.process().wait_for_line("refused: 5 connections open from 203.0.113.7", 5s));

  // Another address: a place, and a game's worth of protocol.
  ProtocolClient other(server.port(), "198.51.100.2");
  CHECK(other.hello("Ann").at("type") == "welcome");
  // The machine itself is never limited.
  auto local = fill(server.port(), "", 8);
  CHECK(local.size() == 8);

  SECTION("a connection closed, dropped or failed in its handshake gives its place back") {
    silent[0]->close();  // closed politely
    silent[1].reset();   // dropped: the socket goes without a close frame
    for (int i = 0; i < 3; ++i) {
      // A handshake that fails: no Sec-WebSocket-Key.
      RawTcp bad(server.port());
      bad.send(
          "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
          "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
          "X-Forwarded-For: 203.0.113.7\r\n\r\n");
      CHECK(bad.read_all(5s).starts_with("HTTP/1.1 400"));
    }
    std::vector<std::unique_ptr<WsClient>> again;
    CHECK(eventually([&] {
      for (auto more = fill(server.port(), flooder, 2 - again.size()); auto& c : more)
        again.push_back(std::move(c));
      return again.size() == 2;
    }));
    CHECK(connect_from(server.port(), flooder) == nullptr);  // and no more than that
  }
}

TEST_CASE("a WebSocket that has not said hello within --hello-timeout is closed 1008",
          "[net][limits][hello_timeout]") {
  DataDir dir;
  ServerProcess server(
      dir, {"--hello-timeout", "1", "--ws-per-address", "2", "--trusted-proxies", "127.0.0.1"});
  const std::string address = "203.0.113.9";
  WsClient silent(server.port(), Headers{{"X-Forwarded-For", address}});
  ProtocolClient talking(server.port(), address);
  CHECK(talking.hello("Bea").at("type") == "welcome");
  CHECK(connect_from(server.port(), address) == nullptr);  // both places taken

  auto frame = silent.read();  // within the client's 5 s: the deadline is 1 s
  REQUIRE(frame.got == WsClient::Got::closed);
  CHECK(silent.close_code() == 1008);
  CHECK(silent.close_reason() == "no hello within 1 s");
  CHECK(server.process().wait_for_line("closed by the server (1008): no hello within 1 s", 5s));
  CHECK(metric(server.port(), "tanbo_connections_hello_timeouts_total") == 1);

  // Past the deadline, the connection that was welcomed is still served.
  std::this_thread::sleep_for(1500ms);
  talking.send({{"type", "ping"}, {"id", 7}});
  CHECK(talking.expect("pong").at("re") == 7);
  CHECK(metric(server.port(), "tanbo_connections_hello_timeouts_total") == 1);

  // The silent one's place came back.
  std::unique_ptr<WsClient> next;
  CHECK(eventually([&] { return (next = connect_from(server.port(), address)) != nullptr; }));
}
