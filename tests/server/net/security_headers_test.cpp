// docs/operations.md, "Security": every answer of the server carries the security headers, from
// a static file to a refused upgrade, against a real server process; HSTS only under TLS
// (tests/server/net/tls_test.cpp).
#include <catch2/catch.hpp>
#include <functional>
#include <sstream>

#include "tests/server/net/edge_support.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;

namespace {

const std::map<std::string, std::string> kExpected = {
    {"content-security-policy",
     "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
     "form-action 'self'; frame-ancestors 'none'"},
    {"x-frame-options", "DENY"},
    {"x-content-type-options", "nosniff"},
    {"referrer-policy", "same-origin"},
};

// The status and headers of a raw HTTP answer.
HttpReply parse_raw(const std::string& raw) {
  HttpReply r;
  std::istringstream in(raw);
  std::string line;
  std::getline(in, line);
  if (line.size() > 12) r.status = static_cast<unsigned>(std::stoi(line.substr(9, 3)));
  while (std::getline(in, line) && line != "\r") {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (auto& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    value.erase(value.find_last_not_of("\r ") + 1);
    r.headers[name] = value;
  }
  return r;
}

WsRefused refusal_of(std::uint16_t port, const Headers& headers) {
  try {
    WsClient c(port, headers);
  } catch (const WsRefused& refused) {
    return refused;
  }
  FAIL("the upgrade was not refused");
  return WsRefused(HttpReply{});
}

}  // namespace

TEST_CASE("every kind of answer carries the security headers, and no HSTS without TLS",
          "[net][security_headers]") {
  DataDir dir;
  ServerProcess server(dir, {"--max-connections", "2", "--ws-per-address", "1", "--trusted-proxies",
                             "127.0.0.1", "--web-dir", std::string(TANBO_SOURCE_DIR) + "/web"});
  const auto port = server.port();
  const std::string own = "http://127.0.0.1:" + std::to_string(port);
  const Headers json = {{"Content-Type", "application/json"}};
  // Held open through the rows below: the 101, then what --ws-per-address and --max-connections
  // refuse.
  WsClient first(port, Headers{{"X-Forwarded-For", "203.0.113.1"}});

  struct Row {
    const char* what;
    unsigned status;
    std::function<HttpReply()> ask;
  };
  const std::vector<Row> rows = {
      {"a static file", 200, [&] { return http_get(port, "/"); }},
      {"HEAD of a static file", 200, [&] { return http_request(port, "HEAD", "/app.js"); }},
      {"a 404 echoing its path", 404, [&] { return http_get(port, "/missing-%3Cb%3E.js"); }},
      {"a static file's 405", 405, [&] { return http_request(port, "PUT", "/app.js"); }},
      {"the API answered at once", 200, [&] { return http_get(port, "/api/rooms"); }},
      {"a deferred API answer", 200, [&] { return http_get(port, "/api/games"); }},
      {"a deferred API error", 404, [&] { return http_get(port, "/api/games/nope-1"); }},
      {"an API refusal", 404, [&] { return http_get(port, "/api/nothing"); }},
      {"an accounts answer", 401,
       [&] {
         return http_exchange(port, "POST", "/api/login", json,
                              R"({"username": "nobody", "password": "wrong one"})");
       }},
      {"/healthz", 200, [&] { return http_get(port, "/healthz"); }},
      {"/metrics", 200, [&] { return http_get(port, "/metrics"); }},
      {"/healthz's 405", 405, [&] { return http_request(port, "POST", "/healthz"); }},
      {"/ws without an upgrade (426)", 426, [&] { return http_get(port, "/ws"); }},
      {"a body that is not JSON (415)", 415,
       [&] {
         return http_exchange(port, "POST", "/api/login", {{"Content-Type", "text/plain"}}, "{}");
       }},
      {"a foreign origin (403)", 403,
       [&] {
         return http_exchange(port, "POST", "/api/logout",
                              {{"Origin", "https://elsewhere.example"}}, {});
       }},
      {"headers over 16 KiB (431)", 431,
       [&] {
         RawTcp c(port);
         c.send("GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(20 * 1024, 'a') + "\r\n\r\n");
         return parse_raw(c.read_all(5s));
       }},
      {"the WebSocket upgrade's 101", 101, [&] { return first.upgrade_reply(); }},
      {"an upgrade over --ws-per-address (429)", 429,
       [&] {
         return refusal_of(port, {{"X-Forwarded-For", "203.0.113.1"}}).reply;
       }},
      {"an upgrade over --max-connections (503)", 503,
       [&] {
         WsClient second(port, Headers{{"X-Forwarded-For", "203.0.113.2"}});
         // ws_live counts a session once its handshake is done: the 101 came before that.
         eventually([&] { return metric(port, "tanbo_connections") == 2; });
         return refusal_of(port, {{"X-Forwarded-For", "203.0.113.3"}}).reply;
       }},
      {"an upgrade from a foreign origin (403)", 403,
       [&] {
         return refusal_of(port, {{"Origin", "https://elsewhere.example"}}).reply;
       }},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    HttpReply r = row.ask();
    CHECK(r.status == row.status);
    for (const auto& [name, value] : kExpected) {
      INFO(name);
      CHECK(r.headers[name] == value);
    }
    CHECK(r.headers.count("strict-transport-security") == 0);
  }
}
