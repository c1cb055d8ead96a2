// Bots across three nodes on one PostgreSQL (docs/bots-write.md): an access token made on one
// node opens a connection on another; revoked on a third, it is refused at once on every node and
// the connection it opened closes; the bot flag made on one node is the account's on every node,
// and two bots connected to different nodes are paired in a pool for bots there.
#include <catch2/catch.hpp>

#include "tests/server/accounts/bot_support.hpp"
#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

TEST_CASE("an access token revoked on one node is refused at once on every node",
          "[cluster][accounts][bots]") {
  auto c = start_cluster(kLease);
  if (!c) return;
  auto rob = account(c->ports[0], "Rob", true);
  const std::string token = access_token(c->ports[0], rob.token);
  ProtocolClient program(c->ports[1]);
  json welcome = hello_access(program, token);
  REQUIRE(welcome.at("type") == "welcome");
  CHECK(welcome.at("player").at("bot") == true);
  for (auto port : c->ports)
    CHECK(http_request(port, "GET", "/api/me/bot", "Bearer " + token).status == 200);

  const json listed =
      json::parse(http_request(c->ports[2], "GET", "/api/me/tokens", "Bearer " + rob.token).body);
  const std::string id = listed.at("tokens").at(0).at("id");
  REQUIRE(
      http_request(c->ports[2], "DELETE", "/api/me/tokens/" + id, "Bearer " + rob.token).status ==
      200);
  // At once: no wait between the answer and these.
  for (auto port : c->ports) {
    ProtocolClient late(port);
    CHECK(hello_access(late, token).at("code") == "bad_token");
    CHECK(http_request(port, "GET", "/api/me/bot", "Bearer " + token).status == 401);
  }
  CHECK(program.next().at("code") == "bad_token");
  CHECK(program.expect_close() == 1000);
}

TEST_CASE("two bots on two nodes are paired in a pool for bots and play to the end",
          "[cluster][accounts][bots]") {
  auto c = start_cluster(kLease, {"--pool-wave-ms", "100"});
  if (!c) return;
  auto rob = account(c->ports[0], "Rob", true);
  auto ria = account(c->ports[1], "Ria", true);
  ProtocolClient rob_program(c->ports[2]), ria_program(c->ports[1]);
  REQUIRE(hello_access(rob_program, access_token(c->ports[0], rob.token)).at("type") == "welcome");
  REQUIRE(hello_access(ria_program, access_token(c->ports[2], ria.token)).at("type") == "welcome");
  const json seek{{"type", "seek"}, {"game", "mancala-simple"}, {"bots", true}};
  CHECK(ask(rob_program, {{"type", "seek"}, {"game", "mancala-simple"}}).at("code") ==
        "bot_pools_only");
  REQUIRE(ask(rob_program, seek).at("type") == "seeking");
  REQUIRE(ask(ria_program, seek).at("type") == "seeking");
  json a = rob_program.expect("paired");
  json b = ria_program.expect("paired");
  REQUIRE(a.at("room") == b.at("room"));
  json end = play_out(rob_program, ria_program, a.at("room"));
  CHECK(end.at("status") == "finished");
  for (const auto& seat : end.at("seats")) CHECK(seat.at("player").at("bot") == true);
}
