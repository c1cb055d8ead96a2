// An account's sessions on a real server process (docs/protocol.md, "Sessions"): listed with the
// one asking marked, ended one at a time (its connections close, the others stay), kept for a
// guest's own token, and ended by themselves once unused for --session-expiry.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/accounts/support.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

json sessions_of(std::uint16_t port, const std::string& token) {
  auto r = http_request(port, "GET", "/api/me/sessions", "Bearer " + token);
  INFO(r.body);
  REQUIRE(r.status == 200);
  return json::parse(r.body).at("sessions");
}

}  // namespace

TEST_CASE("an account lists its sessions and ends one: its connections close, the rest stay",
          "[server][accounts][sessions]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = ana_account(server.port());
  ProtocolClient phone(server.port(), Headers{{"User-Agent", "TanboPhone/2.1 (Android 14)"}});
  const std::string phone_token = login(phone, "ana").at("token");
  auto web = http_exchange(server.port(), "POST", "/api/login",
                           {{"Content-Type", "application/json"},
                            {"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0"}},
                           json{{"username", "ana"}, {"password", kPassword}}.dump());
  REQUIRE(web.status == 200);
  const std::string web_token = json::parse(web.body).at("token");

  json listed = sessions_of(server.port(), web_token);
  REQUIRE(listed.size() == 3);  // the guest's own token, the phone's, the web's
  int current = 0;
  for (const auto& s : listed) {
    CHECK(s.at("id").get<std::string>().size() == 16);
    CHECK(s.at("created_at").is_number_integer());
    CHECK(s.at("last_used_at").get<std::int64_t>() >= s.at("created_at").get<std::int64_t>());
    CHECK(s.at("agent").is_string());
    current += s.at("current").get<bool>();
    // Nothing of a token is listed: no token, no hash.
    for (const auto& t : {ana.token, phone_token, web_token})
      CHECK(s.dump().find(t) == std::string::npos);
  }
  CHECK(current == 1);
  CHECK(listed.at(0).at("current") == true);  // the last used first: the one asking
  // Each with the client that logged in: the browser's User-Agent, the WebSocket client's.
  CHECK(listed.at(0).at("agent") == "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0");
  CHECK(listed.at(1).at("agent") == "TanboPhone/2.1 (Android 14)");
  const std::string phone_session = listed.at(1).at("id");

  SECTION("ending the phone's session closes its connection and refuses its token") {
    auto r = http_request(server.port(), "DELETE", "/api/me/sessions/" + phone_session,
                          "Bearer " + web_token);
    REQUIRE(r.status == 200);
    CHECK(json::parse(r.body) == json{{"ended", phone_session}});
    json pushed = phone.next();
    CHECK(pushed.at("code") == "bad_token");
    CHECK(phone.expect_close() == 1000);
    CHECK(refused_token(server.port(), phone_token));
    CHECK_FALSE(refused_token(server.port(), ana.token));  // the others stay
    CHECK_FALSE(refused_token(server.port(), web_token));
    CHECK(sessions_of(server.port(), web_token).size() == 2);
    // Ended once: not found again.
    CHECK(http_request(server.port(), "DELETE", "/api/me/sessions/" + phone_session,
                       "Bearer " + web_token)
              .status == 404);
  }
  SECTION("another identity's session, or a malformed id, is not found") {
    auto bo = guest(server.port(), "Bo");
    REQUIRE(claim(*bo.client, "bo").at("type") == "ok");
    CHECK(http_request(server.port(), "DELETE", "/api/me/sessions/" + phone_session,
                       "Bearer " + bo.token)
              .status == 404);
    CHECK(http_request(server.port(), "DELETE", "/api/me/sessions/../../me", "Bearer " + bo.token)
              .status == 404);
    CHECK_FALSE(refused_token(server.port(), phone_token));
  }
  SECTION("a guest has no sessions to list") {
    auto cy = guest(server.port(), "Cy");
    auto r = http_request(server.port(), "GET", "/api/me/sessions", "Bearer " + cy.token);
    CHECK(r.status == 409);
    CHECK_THAT(r.body, Catch::Contains("no_account"));
  }
  SECTION("without a valid token, nothing") {
    CHECK(http_request(server.port(), "GET", "/api/me/sessions", "Bearer nope").status == 401);
  }
}

TEST_CASE(
    "an account's session unused for --session-expiry ends, and one in use and a guest's stay",
    "[server][accounts][sessions]") {
  DataDir dir;
  ServerProcess server(dir, {"--session-expiry", "6"});
  auto ana = ana_account(server.port());
  auto bo = guest(server.port(), "Bo");  // a guest: its only token never ends
  ProtocolClient phone(server.port());
  const std::string idle = login(phone, "ana").at("token");
  ProtocolClient tablet(server.port());
  const std::string busy = login(tablet, "ana").at("token");
  // The tablet's token is used every second; the phone's not at all.
  for (int i = 0; i < 7; ++i) {
    std::this_thread::sleep_for(1s);
    CHECK_FALSE(refused_token(server.port(), busy));
  }
  CHECK(refused_token(server.port(), idle));
  CHECK_FALSE(refused_token(server.port(), bo.token));
  SECTION("and after a restart the store has kept the uses") {
    REQUIRE(server.terminate() == 0);
    ServerProcess again(dir, {"--session-expiry", "6"});
    CHECK_FALSE(refused_token(again.port(), busy));
    CHECK(refused_token(again.port(), idle));
    CHECK_FALSE(refused_token(again.port(), bo.token));
  }
}
