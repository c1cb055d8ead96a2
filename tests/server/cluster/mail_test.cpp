// Mail across three nodes on one PostgreSQL (docs/protocol.md, "Mail"): a link sent by one node
// opens on another, once, since its token is in the store every node reads; the limits per
// account hold for the whole cluster; a new password set on one node ends the sessions on all.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr const char* kPassword = "correct horse battery";

std::string mail_number(const std::filesystem::path& dir, int n) {
  const auto file = dir / (std::to_string(n) + ".eml");
  for (int i = 0; i < 400 && !std::filesystem::exists(file); ++i) std::this_thread::sleep_for(25ms);
  REQUIRE(std::filesystem::exists(file));
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string link_in(const std::string& mail, const std::string& view) {
  std::smatch m;
  REQUIRE(std::regex_search(mail, m, std::regex("/#/" + view + "/([0-9a-f]{40})\n")));
  return m[1];
}

HttpReply post(std::uint16_t port, const std::string& path, const json& body,
               const std::string& token = "") {
  return http_request(port, "POST", path, token.empty() ? "" : "Bearer " + token, body.dump());
}

bool refused_token(std::uint16_t port, const std::string& token) {
  ProtocolClient c(port);
  c.send({{"type", "hello"}, {"id", "h"}, {"token", token}});
  json m = c.next();
  return m.at("type") == "error" && m.at("code") == "bad_token";
}

}  // namespace

TEST_CASE("mail across nodes: a link sent by one node opens on another, once",
          "[cluster][accounts][mail]") {
  DataDir box;
  std::filesystem::create_directories(box.path);
  auto c = start_cluster(
      kLease,
      {"--mail-command",
       std::string(TANBO_SOURCE_DIR) + "/tests/server/support/mailbox.sh " + box.path.string(),
       "--mail-from", "tanbo@example.org", "--public-url", "https://play.example.org"});
  if (!c) return;
  auto ana = guest(c->ports[0], "Ana");
  ana.client->send({{"type", "claim"}, {"id", "q"}, {"username", "Ana"}, {"password", kPassword}});
  REQUIRE(ana.client->expect("ok").at("re") == "q");

  auto asked = http_request(c->ports[0], "PUT", "/api/me/mail", "Bearer " + ana.token,
                            json{{"mail", "ana@example.org"}, {"password", kPassword}}.dump());
  REQUIRE(asked.status == 200);
  const std::string confirm = link_in(mail_number(box.path, 1), "confirm-mail");
  REQUIRE(post(c->ports[1], "/api/mail/confirm", {{"token", confirm}}).status == 200);
  CHECK(post(c->ports[2], "/api/mail/confirm", {{"token", confirm}}).status == 400);

  ProtocolClient tablet(c->ports[2]);
  tablet.send(
      {{"type", "hello"}, {"id", "h"}, {"login", {{"username", "Ana"}, {"password", kPassword}}}});
  tablet.expect("welcome");
  // Three links an hour for the account, whichever nodes are asked: the fourth is not sent.
  for (int i = 0; i < 4; ++i)
    CHECK(post(c->ports[std::size_t(i % 3)], "/api/password/forgot", {{"login", "ana"}}).status ==
          200);
  const std::string reset = link_in(mail_number(box.path, 2), "reset");
  mail_number(box.path, 4);
  REQUIRE(post(c->ports[2], "/api/password/reset",
               {{"token", reset}, {"password", "a fresh start at last"}})
              .status == 200);
  CHECK(tablet.next().at("code") == "bad_token");
  for (auto port : c->ports) CHECK(refused_token(port, ana.token));
  CHECK(post(c->ports[0], "/api/password/reset",
             {{"token", reset}, {"password", "another fresh start"}})
            .status == 400);
  // The fourth ask was answered alike and sent nothing.
  std::this_thread::sleep_for(500ms);
  CHECK_FALSE(std::filesystem::exists(box.path / "5.eml"));
}
