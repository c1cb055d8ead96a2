// Bot accounts on a real server over SQLite (docs/bots-write.md): an account becomes a bot, once,
// and not after a rated game; its personal access tokens open the WebSocket and the HTTP API,
// and stop at once when revoked; a bot plays a person who plays bots, and only such a person;
// two bots are paired in a pool for bots, where people may not seek; a bot's dropped message
// says when to send again.
#include <catch2/catch.hpp>

#include "tests/server/accounts/bot_support.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

json http_json(std::uint16_t port, const std::string& method, const std::string& path,
               const std::string& token, const std::string& body = "") {
  auto r = http_request(port, method, path, "Bearer " + token, body);
  INFO(method << " " << path << ": " << r.status << " " << r.body);
  json j = json::parse(r.body);
  j["status"] = r.status;
  return j;
}

// Ana (an account) and Bo play a ranked game of mancala-simple, which Ana resigns.
void rated_game(ProtocolClient& ana, ProtocolClient& bo) {
  ana.send({{"type", "create"}, {"id", "c"}, {"game", "mancala-simple"}, {"ranked", true}});
  std::string room = ana.expect("created").at("room");
  bo.send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
  bo.expect("joined");
  ana.send({{"type", "resign"}, {"id", "r"}, {"room", room}});
  for (json s = ana.next(); s.value("status", "") != "finished";) s = ana.next();
  ana.heard(), bo.heard();  // the resign's ok, the last states: nothing left unread
}

}  // namespace

TEST_CASE("an account becomes a bot for good, and not once it has played a rated game",
          "[server][accounts][bots]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  auto guest_rob = guest(port, "Rob");
  CHECK(ask(*guest_rob.client, {{"type", "become_bot"}}).at("code") == "no_account");

  auto rob = account(port, "Rob", true);
  CHECK(ask(*rob.client, {{"type", "become_bot"}}).at("type") == "ok");  // a bot already
  ProtocolClient again(port);
  CHECK(again.hello("", rob.token).at("player") ==
        json{{"id", rob.id}, {"name", "Rob"}, {"account", true}, {"bot", true}});
  json flags = http_json(port, "GET", "/api/me/bot", rob.token);
  CHECK(flags.at("bot") == true);
  CHECK(flags.at("play_bots") == false);
  CHECK(server.logged("accounts: " + rob.id + " is a bot now"));
  auto player = http_request(port, "GET", "/api/players/" + rob.id);
  CHECK(json::parse(player.body).at("bot") == true);

  auto ana = account(port, "Ana", false);
  auto bo = guest(port, "Bo");
  rated_game(*ana.client, *bo.client);
  json refused = ask(*ana.client, {{"type", "become_bot"}});
  CHECK(refused.at("code") == "already_rated");
  json over_http = http_json(port, "POST", "/api/me/bot", ana.token);
  CHECK(over_http.at("status") == 409);
  CHECK(over_http.at("error").at("code") == "already_rated");
  CHECK(http_json(port, "GET", "/api/me/bot", ana.token).at("bot") == false);
  auto board = json::parse(http_request(port, "GET", "/api/players/" + ana.id).body);
  CHECK_FALSE(board.contains("bot"));

  // Stored: a restart keeps the bot a bot.
  REQUIRE(server.terminate() == 0);
  ServerProcess restarted(dir);
  ProtocolClient after(restarted.port());
  CHECK(after.hello("", rob.token).at("player").at("bot") == true);
}

TEST_CASE("an access token opens the WebSocket and the API until it is revoked",
          "[server][accounts][bots]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  auto rob = account(port, "Rob", true);
  const std::string token = access_token(port, rob.token, "laptop");
  CHECK(token.starts_with("tbp_"));
  json listed = http_json(port, "GET", "/api/me/tokens", rob.token);
  REQUIRE(listed.at("tokens").size() == 1);
  CHECK(listed.at("tokens")[0].at("name") == "laptop");
  const std::string id = listed.at("tokens")[0].at("id");
  CHECK(server.logged("made the access token " + id + " (laptop)"));
  CHECK(server.log().find(token) == std::string::npos);

  ProtocolClient program(port);
  json welcome = hello_access(program, token);
  REQUIRE(welcome.at("type") == "welcome");
  CHECK(welcome.at("player").at("id") == rob.id);
  CHECK(welcome.at("player").at("bot") == true);
  CHECK(http_json(port, "GET", "/api/me/bot", token).at("status") == 200);
  // It cannot manage tokens; the kinds are not mixed in hello.
  CHECK(http_json(port, "GET", "/api/me/tokens", token).at("status") == 403);
  CHECK(http_json(port, "GET", "/api/me/sessions", token).at("status") == 403);
  ProtocolClient as_token(port);
  as_token.send({{"type", "hello"}, {"id", "h"}, {"token", token}});
  CHECK(as_token.next().at("code") == "bad_token");
  ProtocolClient session_as_access(port);
  CHECK(hello_access(session_as_access, rob.token).at("code") == "bad_token");
  // A logout everywhere ends the sessions, never the access tokens.
  auto phone = http_login(port, "Rob");
  REQUIRE(phone.status == 200);
  const std::string phone_token = json::parse(phone.body).at("token");
  REQUIRE(
      http_request(port, "POST", "/api/logout", "Bearer " + phone_token, R"({"everywhere": true})")
          .status == 200);
  ProtocolClient still(port);
  CHECK(hello_access(still, token).at("type") == "welcome");

  // The owner's next session revokes it: at once, and its connections close.
  const std::string session = json::parse(http_login(port, "Rob").body).at("token");
  json revoked = http_json(port, "DELETE", "/api/me/tokens/" + id, session);
  CHECK(revoked.at("status") == 200);
  CHECK(revoked.at("tokens").empty());
  CHECK(program.next().at("code") == "bad_token");
  CHECK(program.expect_close() == 1000);
  ProtocolClient late(port);
  CHECK(hello_access(late, token).at("code") == "bad_token");
  CHECK(http_json(port, "GET", "/api/me/bot", token).at("status") == 401);
  CHECK(server.logged("revoked the access token " + id));
  CHECK(http_json(port, "DELETE", "/api/me/tokens/" + id, session).at("status") == 404);
}

TEST_CASE("an access token is kept, hashed, across a restart", "[server][accounts][bots]") {
  DataDir dir;
  ServerProcess server(dir);
  auto rob = account(server.port(), "Rob", true);
  const std::string token = access_token(server.port(), rob.token);
  REQUIRE(server.terminate() == 0);
  ServerProcess restarted(dir);
  ProtocolClient program(restarted.port());
  CHECK(hello_access(program, token).at("player").at("id") == rob.id);
}
