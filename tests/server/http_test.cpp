#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "server/version.hpp"
#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"

using namespace tanbo::server;
using namespace tanbo::server::test;
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
