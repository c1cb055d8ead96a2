// Mail across three nodes on one PostgreSQL (docs/protocol.md, "Mail"): a link sent by one node
// opens on another, once, since its token is in the store every node reads; the limits per
// account hold for the whole cluster; a new password set on one node ends the sessions on all.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/cluster/three_nodes.hpp"
#include "tests/server/support/mailbox.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr const char* kAnaPassword = "correct horse battery";

HttpReply post_json(std::uint16_t port, const std::string& path, const json& body,
                    const std::string& token = "") {
  return http_request(port, "POST", path, token.empty() ? "" : "Bearer " + token, body.dump());
}

bool revoked_on(std::uint16_t port, const std::string& token) {
  ProtocolClient c(port);
  c.send({{"type", "hello"}, {"id", "h"}, {"token", token}});
  json m = c.next();
  return m.at("type") == "error" && m.at("code") == "bad_token";
}

}  // namespace

TEST_CASE("mail across nodes: a link sent by one node opens on another, once",
          "[cluster][accounts][mail]") {
  Mailbox box;
  auto c = start_cluster(kLease, box.flags());
  if (!c) return;
  auto ana = guest(c->ports[0], "Ana");
  ana.client->send(
      {{"type", "claim"}, {"id", "q"}, {"username", "Ana"}, {"password", kAnaPassword}});
  REQUIRE(ana.client->expect("ok").at("re") == "q");

  auto asked = http_request(c->ports[0], "PUT", "/api/me/mail", "Bearer " + ana.token,
                            json{{"mail", "ana@example.org"}, {"password", kAnaPassword}}.dump());
  REQUIRE(asked.status == 200);
  const std::string confirm = mail_link_token(box.wait(1), "confirm-mail");
  REQUIRE(post_json(c->ports[1], "/api/mail/confirm", {{"token", confirm}}).status == 200);
  CHECK(post_json(c->ports[2], "/api/mail/confirm", {{"token", confirm}}).status == 400);

  ProtocolClient tablet(c->ports[2]);
  tablet.send({{"type", "hello"},
               {"id", "h"},
               {"login", {{"username", "Ana"}, {"password", kAnaPassword}}}});
  tablet.expect("welcome");
  // Three links an hour for the account, whichever nodes are asked: the fourth is not sent.
  for (int i = 0; i < 4; ++i)
    CHECK(post_json(c->ports[std::size_t(i % 3)], "/api/password/forgot", {{"login", "ana"}})
              .status == 200);
  const std::string reset = mail_link_token(box.wait(2), "reset");
  box.wait(4);
  REQUIRE(post_json(c->ports[2], "/api/password/reset",
                    {{"token", reset}, {"password", "a fresh start at last"}})
              .status == 200);
  CHECK(tablet.next().at("code") == "bad_token");
  for (auto port : c->ports) CHECK(revoked_on(port, ana.token));
  CHECK(post_json(c->ports[0], "/api/password/reset",
                  {{"token", reset}, {"password", "another fresh start"}})
            .status == 400);
  // The fourth ask was answered alike and sent nothing.
  std::this_thread::sleep_for(500ms);
  CHECK(box.count() == 4);
}
