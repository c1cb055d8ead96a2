// Accounts across three nodes on one PostgreSQL (docs/protocol.md, "Accounts"): a username claimed
// on one node logs in on the others, a logout everywhere on one is refused on all, its recovery
// code works on any node once, and login attempts spread over the nodes count as one account's:
// its wait holds on every node.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

constexpr const char* kPassword = "correct horse battery";

json login(std::uint16_t port, const std::string& password = kPassword) {
  ProtocolClient c(port);
  c.send(
      {{"type", "hello"}, {"id", "h"}, {"login", {{"username", "Ana"}, {"password", password}}}});
  return c.next();
}

bool refused_token(std::uint16_t port, const std::string& token) {
  ProtocolClient c(port);
  c.send({{"type", "hello"}, {"id", "h"}, {"token", token}});
  json m = c.next();
  return m.at("type") == "error" && m.at("code") == "bad_token";
}

}  // namespace

TEST_CASE("accounts across nodes: claim on one, log in on another, log out everywhere",
          "[cluster][accounts]") {
  auto c = start_cluster(kLease, {"--login-lockout", "60"});
  if (!c) return;
  auto ana = guest(c->ports[0], "Ana");
  ana.client->send({{"type", "claim"}, {"id", "q"}, {"username", "Ana"}, {"password", kPassword}});
  json claimed = ana.client->expect("ok");
  REQUIRE(claimed.at("re") == "q");
  const std::string code = claimed.at("recovery_code");

  json on_1 = login(c->ports[1]);
  REQUIRE(on_1.at("type") == "welcome");
  CHECK(on_1.at("player").at("id") == ana.id);
  CHECK(on_1.at("account").at("username") == "Ana");
  auto http = http_request(c->ports[2], "POST", "/api/login", "",
                           json{{"username", "ana"}, {"password", kPassword}}.dump());
  REQUIRE(http.status == 200);
  const std::string token_2 = json::parse(http.body).at("token");
  // Each node knows each token, whichever made it.
  for (auto port : c->ports) {
    CHECK_FALSE(refused_token(port, ana.token));
    CHECK_FALSE(refused_token(port, on_1.at("token")));
    CHECK_FALSE(refused_token(port, token_2));
  }

  SECTION("a logout everywhere on one node is refused on every node") {
    auto r = http_request(c->ports[1], "POST", "/api/logout", "Bearer " + token_2,
                          R"({"everywhere": true})");
    REQUIRE(r.status == 200);
    for (auto port : c->ports)
      for (const auto& t : {ana.token, on_1.at("token").get<std::string>(), token_2})
        CHECK(refused_token(port, t));
  }
  SECTION("the recovery code said on one node recovers on another, once, closing every session") {
    ProtocolClient tablet(c->ports[1]);
    tablet.send({{"type", "hello"},
                 {"id", "h"},
                 {"login", {{"username", "Ana"}, {"password", kPassword}}}});
    tablet.expect("welcome");
    const std::string fresh = "a fresh start at last";
    auto r = http_request(c->ports[2], "POST", "/api/recover", "",
                          json{{"username", "ana"}, {"code", code}, {"password", fresh}}.dump());
    REQUIRE(r.status == 200);
    CHECK(tablet.next().at("code") == "bad_token");
    for (auto port : c->ports) {
      CHECK(refused_token(port, ana.token));
      CHECK(refused_token(port, token_2));
    }
    CHECK(login(c->ports[0], fresh).at("type") == "welcome");
    auto again =
        http_request(c->ports[0], "POST", "/api/recover", "",
                     json{{"username", "ana"}, {"code", code}, {"password", fresh}}.dump());
    CHECK(again.status == 401);
  }
  SECTION("a session ended on one node closes its connection on another") {
    ProtocolClient tablet(c->ports[1]);
    tablet.send({{"type", "hello"},
                 {"id", "h"},
                 {"login", {{"username", "Ana"}, {"password", kPassword}}}});
    const std::string tablet_token = tablet.expect("welcome").at("token");
    auto r = http_request(c->ports[0], "GET", "/api/me/sessions", "Bearer " + token_2);
    REQUIRE(r.status == 200);
    const json sessions = json::parse(r.body).at("sessions");
    REQUIRE(sessions.size() == 4);
    CHECK(sessions.at(0).at("current") == false);  // the tablet's, the newest
    CHECK(sessions.at(1).at("current") == true);
    const std::string id = sessions.at(0).at("id");
    r = http_request(c->ports[2], "DELETE", "/api/me/sessions/" + id, "Bearer " + token_2);
    REQUIRE(r.status == 200);
    CHECK(tablet.next().at("code") == "bad_token");
    CHECK(tablet.expect_close() == 1000);
    for (auto port : c->ports) {
      CHECK(refused_token(port, tablet_token));
      CHECK_FALSE(refused_token(port, token_2));
    }
  }
  SECTION("failed logins on three nodes count as one account's, and its wait holds on each") {
    // Five free attempts, then 1 s, then 2 s, then 4 s before the next.
    for (int i = 0; i < 7; ++i) {
      if (i == 5) std::this_thread::sleep_for(std::chrono::milliseconds(1100));
      if (i == 6) std::this_thread::sleep_for(std::chrono::milliseconds(2100));
      CHECK(login(c->ports[std::size_t(i) % 3], "wrong").at("code") == "bad_login");
    }
    for (auto port : c->ports) CHECK(login(port).at("code") == "bad_login");  // too soon
    std::this_thread::sleep_for(std::chrono::milliseconds(4100));
    CHECK(login(c->ports[2]).at("type") == "welcome");
  }
}

TEST_CASE("a name that looks like an account's made on one node is refused on the others",
          "[cluster][accounts][names]") {
  auto c = start_cluster(kLease);
  if (!c) return;
  auto ana = guest(c->ports[0], "Ana");
  ana.client->send({{"type", "claim"}, {"id", "q"}, {"username", "ana"}, {"password", kPassword}});
  REQUIRE(ana.client->expect("ok").at("re") == "q");
  // Nodes 1 and 2 read every identity at start, before the account: the store answers for it.
  auto refused = [&](std::uint16_t port, const std::string& name) {
    ProtocolClient g(port);
    g.send({{"type", "hello"}, {"id", "h"}, {"name", name}});
    json m = g.next();
    return m.at("type") == "error" && m.at("code") == "name_reserved";
  };
  for (auto port : c->ports) {
    CHECK(refused(port, "\u0410na"));            // a Cyrillic А
    CHECK(refused(port, "\uFF21\uFF4E\uFF41"));  // fullwidth
  }
  // Its holder takes another name on node 2: node 1 protects the new one once it is stored.
  ProtocolClient again(c->ports[2]);
  REQUIRE(again.hello("Zed", ana.token).at("player").at("name") == "Zed");
  for (int i = 0; i < 50 && get_json(c->ports[1], "/api/players/" + ana.id).at("name") != "Zed";
       ++i)
    std::this_thread::sleep_for(100ms);
  CHECK(refused(c->ports[1], "Z\u0435d"));  // a Cyrillic е
  CHECK(refused(c->ports[1], "ANA"));       // the username stays protected
  CHECK_FALSE(refused(c->ports[1], "Ana B"));
}
