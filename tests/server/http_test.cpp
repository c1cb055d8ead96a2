#include <catch2/catch.hpp>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "server/version.hpp"
#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using nlohmann::json;

TEST_CASE("GET /healthz answers 200 with status, version and uptime", "[server][http]") {
  InProcessServer fx;
  REQUIRE(fx.port() != 0);
  auto res = http_get(fx.port(), "/healthz");

  SECTION("the status is 200 and the body is JSON") {
    CHECK(res.status == 200u);
    CHECK(res.content_type == "application/json");
  }
  SECTION("the body names status, version and uptime") {
    json body = json::parse(res.body);
    CHECK(body.at("status") == "ok");
    CHECK(body.at("version") == std::string(version()));
    REQUIRE(body.at("uptime_s").is_number_integer());
    CHECK(body.at("uptime_s").get<long>() >= 0);
  }
  SECTION("a query string does not change the route") {
    CHECK(http_get(fx.port(), "/healthz?probe=1").status == 200u);
  }
  SECTION("HEAD gets the headers without a body") {
    auto head = http_request(fx.port(), "HEAD", "/healthz");
    CHECK(head.status == 200u);
    CHECK(head.body.empty());
  }
}

TEST_CASE("an unknown path answers 404 with a JSON error", "[server][http]") {
  InProcessServer fx;
  auto res = http_get(fx.port(), "/no/such/thing");
  CHECK(res.status == 404u);
  json body = json::parse(res.body);
  CHECK(body.at("error").at("code") == "not_found");
  CHECK(body.at("status") == 404);
}

TEST_CASE("routes refuse what they do not serve", "[server][http]") {
  InProcessServer fx;
  SECTION("POST /healthz is 405") {
    auto res = http_request(fx.port(), "POST", "/healthz");
    CHECK(res.status == 405u);
    CHECK(json::parse(res.body).at("error").at("code") == "bad_method");
  }
  SECTION("a plain GET of /ws is 426") {
    auto res = http_get(fx.port(), "/ws");
    CHECK(res.status == 426u);
  }
}

TEST_CASE("a listener on an address in use fails to start with the reason", "[server][http]") {
  InProcessServer first;
  Config c = loopback_config();
  c.port = first.port();
  Server second(c, std::make_shared<UnknownTypeHandler>());
  CHECK_THROWS_WITH(second.start(), Catch::Contains("bind"));
}

TEST_CASE("request headers over 16 KiB are answered 431 and the connection closes",
          "[server][http][limits]") {
  InProcessServer fx;
  RawTcp c(fx.port());
  c.send("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(100 * 1024, 'a') + "\r\n\r\n");
  std::string reply = c.read_all(std::chrono::seconds(5));
  CHECK(reply.starts_with("HTTP/1.1 431 "));
  SECTION("a request just under the limit is answered as usual") {
    RawTcp d(fx.port());
    d.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Pad: " +
           std::string(15 * 1024, 'a') + "\r\n\r\n");
    CHECK(d.read_all(std::chrono::seconds(5)).starts_with("HTTP/1.1 200 "));
  }
}

TEST_CASE("HTTP connections that never upgrade have a limit of their own, the oldest goes",
          "[server][http][limits]") {
  Config c = loopback_config();
  c.max_http = 8;
  InProcessServer fx(c);
  std::vector<std::unique_ptr<RawTcp>> idle;
  for (int i = 0; i < 8; ++i) idle.push_back(std::make_unique<RawTcp>(fx.port()));
  // Each newcomer past the limit closes the oldest one.
  for (int i = 0; i < 3; ++i) {
    idle.push_back(std::make_unique<RawTcp>(fx.port()));
    CHECK(idle[std::size_t(i)]->closed_within(std::chrono::seconds(5)));
  }
  // A real request is served though every slot is held by a silent socket.
  CHECK(http_get(fx.port(), "/healthz").status == 200u);
  CHECK(idle[3]->closed_within(std::chrono::seconds(5)));
  CHECK_FALSE(idle[4]->closed_within(std::chrono::milliseconds(100)));
  WsClient ws(fx.port());  // an upgrade leaves the HTTP limit: it does not count there
  auto metrics = http_get(fx.port(), "/metrics").body;
  CHECK_THAT(metrics, Catch::Contains("tanbo_http_evicted_total"));
  CHECK_THAT(metrics, !Catch::Contains("tanbo_http_evicted_total 0\n"));
}
