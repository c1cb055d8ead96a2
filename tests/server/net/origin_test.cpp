// docs/protocol.md, "HTTP API": the Origin allowlist of /ws and of the API's state-changing
// requests, and JSON bodies only on the API. A page of another site could otherwise post a
// login as text/plain (no CORS preflight) and spend its visitors' addresses' attempts.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "server/net/origin.hpp"
#include "server/net/request_checks.hpp"
#include "tests/server/net/edge_support.hpp"
#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

const std::string kLogin = R"({"username": "nobody", "password": "not this one"})";

std::string code_of(const HttpReply& r) {
  auto body = nlohmann::json::parse(r.body, nullptr, false);
  return body.is_object() && body.contains("error") ? body["error"].value("code", "") : "";
}

// The status of a /ws upgrade with these headers: 101 when it opened.
unsigned upgrade_status(std::uint16_t port, const Headers& headers) {
  try {
    WsClient c(port, headers);
    return c.upgrade_reply().status;
  } catch (const WsRefused& refused) {
    return refused.reply.status;
  }
}

}  // namespace

TEST_CASE("origins compare as scheme, host and port, the default port folded", "[net][origin]") {
  CHECK(normalize_origin("HTTPS://Play.Example.org") == "https://play.example.org");
  CHECK(normalize_origin("https://play.example.org:443") == "https://play.example.org");
  CHECK(normalize_origin("http://play.example.org:80") == "http://play.example.org");
  CHECK(normalize_origin("http://play.example.org:8080") == "http://play.example.org:8080");
  CHECK(normalize_origin("http://[::1]:8080") == "http://[::1]:8080");
  for (const char* bad :
       {"null", "", "play.example.org", "ftp://play.example.org", "https://play.example.org/",
        "https://user@play.example.org", "https://", "https://:443"}) {
    INFO(bad);
    CHECK_FALSE(normalize_origin(bad));
  }

  AllowedOrigins own;
  CHECK(own.admits("http://127.0.0.1:8080", "127.0.0.1:8080"));
  CHECK(own.admits("https://games.example.org", "games.example.org"));
  CHECK(own.admits("https://games.example.org", "Games.Example.org:443"));
  CHECK(own.admits("http://games.example.org", "games.example.org:80"));
  CHECK_FALSE(own.admits("http://127.0.0.1:8081", "127.0.0.1:8080"));
  CHECK_FALSE(own.admits("https://evil.example", "games.example.org"));
  CHECK_FALSE(own.admits("null", "games.example.org"));
  CHECK_FALSE(own.admits("https://games.example.org", ""));

  AllowedOrigins listed({"https://play.example.org"});
  CHECK(listed.admits("https://play.example.org:443", "games.example.org"));
  CHECK_FALSE(listed.admits("http://play.example.org", "games.example.org"));
  CHECK(AllowedOrigins({"*"}).admits("null", "games.example.org"));

  CHECK(is_json_media_type("application/json"));
  CHECK(is_json_media_type("Application/JSON; charset=utf-8"));
  CHECK_FALSE(is_json_media_type("text/plain"));
  CHECK_FALSE(is_json_media_type("application/jsonx"));
  CHECK_FALSE(is_json_media_type(""));
}

TEST_CASE("a page of another site can neither post to the API nor open /ws, and its own can",
          "[net][origin]") {
  DataDir dir;
  ServerProcess server(dir, {"--allowed-origins", "https://play.example.org"});
  const auto port = server.port();
  const std::string host = "127.0.0.1:" + std::to_string(port);
  const std::string own = "http://" + host;
  const std::string foreign = "https://elsewhere.example";

  SECTION("the attack: a cross-origin text/plain login is refused, not answered") {
    auto r = http_exchange(port, "POST", "/api/login",
                           {{"Host", host}, {"Origin", foreign}, {"Content-Type", "text/plain"}},
                           kLogin);
    CHECK(r.status == 403);
    CHECK(code_of(r) == "bad_origin");
    CHECK(metric(port, "tanbo_http_bad_origin_total") == 1);
    // Whatever the body: the origin is enough.
    r = http_exchange(port, "POST", "/api/login",
                      {{"Host", host}, {"Origin", foreign}, {"Content-Type", "application/json"}},
                      kLogin);
    CHECK(r.status == 403);
    CHECK(server.process().wait_for_line("refused: Origin https://elsewhere.example",
                                         std::chrono::seconds(5)));
  }
  SECTION("the page's own origin, a listed one, and no Origin at all reach the login") {
    for (const Headers& from : {Headers{{"Host", host}, {"Origin", own}},
                                Headers{{"Host", host}, {"Origin", "https://play.example.org"}},
                                Headers{{"Host", host}}}) {
      Headers h = from;
      h.emplace_back("Content-Type", "application/json; charset=utf-8");
      auto r = http_exchange(port, "POST", "/api/login", h, kLogin);
      CHECK(r.status == 401);
      CHECK(code_of(r) == "bad_login");
    }
  }
  SECTION("a body not declared JSON is refused 415, from anyone") {
    for (const char* type : {"text/plain", "application/x-www-form-urlencoded", ""}) {
      INFO(type);
      Headers h = {{"Host", host}, {"Origin", own}};
      if (*type) h.emplace_back("Content-Type", type);
      auto r = http_exchange(port, "POST", "/api/login", h, kLogin);
      CHECK(r.status == 415);
      CHECK(code_of(r) == "bad_content_type");
    }
    CHECK(metric(port, "tanbo_http_bad_content_type_total") == 3);
  }
  SECTION("reading is open to any page: GET carries no Origin check") {
    auto r = http_exchange(port, "GET", "/api/rooms", {{"Host", host}, {"Origin", foreign}});
    CHECK(r.status == 200);
  }
  SECTION("/ws: a foreign origin's upgrade is refused 403; its own, a listed one, none open") {
    CHECK(upgrade_status(port, {{"Origin", foreign}}) == 403);
    CHECK(upgrade_status(port, {{"Origin", "http://127.0.0.1:1"}}) == 403);
    CHECK(upgrade_status(port, {{"Origin", own}, {"Host", host}}) == 101);
    CHECK(upgrade_status(port, {{"Origin", "https://play.example.org"}}) == 101);
    CHECK(upgrade_status(port, {}) == 101);
  }
}

TEST_CASE("with --allowed-origins '*' any page is admitted", "[net][origin]") {
  DataDir dir;
  ServerProcess server(dir, {"--allowed-origins", "*"});
  CHECK(upgrade_status(server.port(), {{"Origin", "https://elsewhere.example"}}) == 101);
  auto r = http_exchange(server.port(), "POST", "/api/login",
                         {{"Origin", "null"}, {"Content-Type", "application/json"}}, kLogin);
  CHECK(r.status == 401);
}
