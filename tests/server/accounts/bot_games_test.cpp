// Bots playing on a real server over SQLite (docs/bots-write.md): a bot and a person who plays
// bots, through a challenge, to the game's end; two bots paired in a pool for bots, to the end;
// a person kept out of that pool, a bot out of the people's; and a bot's dropped message
// answered with the time to wait.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "tests/server/accounts/bot_support.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

// The challenge `challenger` sends `to` for a game of mancala-simple: the answer.
json challenge(ProtocolClient& challenger, const std::string& to) {
  return ask(challenger, {{"type", "challenge"}, {"player", to}, {"game", "mancala-simple"}});
}

json seek(ProtocolClient& c, bool bots) {
  json m{{"type", "seek"}, {"game", "mancala-simple"}};
  if (bots) m["bots"] = true;
  return ask(c, m);
}

}  // namespace

TEST_CASE("a bot plays a challenge to its end with a person who plays bots, and no one else",
          "[server][accounts][bots]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  auto rob = account(port, "Rob", true);
  ProtocolClient program(port);
  REQUIRE(hello_access(program, access_token(port, rob.token)).at("type") == "welcome");
  auto una = account(port, "Una", false);

  // Una has not said she plays bots: no challenge either way.
  CHECK(challenge(program, una.id).at("code") == "bots_refused");
  CHECK(challenge(*una.client, rob.id).at("code") == "bots_refused");
  auto guest_ivo = guest(port, "Ivo");  // a guest cannot say it: no account
  CHECK(challenge(program, guest_ivo.id).at("code") == "bots_refused");

  auto on = http_request(port, "PUT", "/api/me/play_bots", "Bearer " + una.token,
                         R"({"play_bots": true})");
  REQUIRE(on.status == 200);
  CHECK(json::parse(on.body) == json{{"bot", false}, {"play_bots", true}});

  json sent = challenge(program, una.id);
  REQUIRE(sent.at("type") == "challenging");
  json got = una.client->expect("challenged");
  CHECK(got.at("from").at("bot") == true);
  CHECK(got.at("from").at("id") == rob.id);
  una.client->send({{"type", "accept"}, {"id", "a"}, {"challenge", got.at("challenge")}});
  json paired = program.expect("paired");
  const std::string room = paired.at("room");
  // Rob's connection from the first hello reads nothing of it; the program plays.
  json end = play_out(program, *una.client, room);
  CHECK(end.at("status") == "finished");
  for (const auto& seat : end.at("seats")) {
    const bool is_rob = seat.at("player").at("id") == rob.id;
    CHECK(seat.at("player").value("bot", false) == is_rob);
  }
  // Una's own challenge now goes through too.
  CHECK(challenge(*una.client, rob.id).at("type") == "challenging");
}

TEST_CASE("two bots are paired in a pool for bots and play to the end, people stay out",
          "[server][accounts][bots]") {
  DataDir dir;
  ServerProcess server(dir, {"--pool-wave-ms", "100"});
  const auto port = server.port();
  auto rob = account(port, "Rob", true);
  auto ria = account(port, "Ria", true);
  auto una = account(port, "Una", false);
  auto ivo = guest(port, "Ivo");

  CHECK(seek(*rob.client, false).at("code") == "bot_pools_only");
  CHECK(seek(*una.client, true).at("code") == "bots_only");
  CHECK(seek(*ivo.client, true).at("code") == "bots_only");
  // A person waiting in the people's pool of the same terms is never paired with a bot.
  REQUIRE(seek(*una.client, false).at("type") == "seeking");

  json first = seek(*rob.client, true);
  REQUIRE(first.at("type") == "seeking");
  CHECK(first.at("pool").at("bots") == true);
  REQUIRE(seek(*ria.client, true).at("type") == "seeking");
  json a = rob.client->expect("paired");
  json b = ria.client->expect("paired");
  REQUIRE(a.at("room") == b.at("room"));
  json end = play_out(*rob.client, *ria.client, a.at("room"));
  CHECK(end.at("status") == "finished");
  for (const auto& seat : end.at("seats")) CHECK(seat.at("player").at("bot") == true);
  CHECK(una.client->hears_nothing());  // still waiting, alone in the people's pool

  auto record = get_json(port, "/api/games/" + end.at("room").get<std::string>() + "-1");
  for (const auto& p : record.at("players_info")) CHECK(p.at("bot") == true);
  const auto metrics = http_request(port, "GET", "/metrics").body;
  CHECK(metrics.find("tanbo_bot_connections 2") != std::string::npos);
}

TEST_CASE("a bot's dropped message says when to send again", "[server][accounts][bots]") {
  DataDir dir;
  // People unlimited (ServerProcess's flags), bots at 3 at once and 2 a second.
  ServerProcess server(dir, {"--bot-rate-burst", "3", "--bot-rate", "2"});
  const auto port = server.port();
  auto rob = account(port, "Rob", true);
  ProtocolClient program(port);
  REQUIRE(hello_access(program, access_token(port, rob.token)).at("type") == "welcome");
  for (int i = 0; i < 10; ++i) program.send({{"type", "ping"}, {"id", i}});
  int pongs = 0;
  std::vector<json> dropped;
  for (int i = 0; i < 10; ++i) {
    json m = program.next();
    if (m.at("type") == "pong") ++pongs;
    if (m.at("type") == "error") dropped.push_back(m);
  }
  CHECK(pongs >= 3);  // the burst, and what came back while they were read (2 a second)
  CHECK(pongs <= 5);
  REQUIRE(dropped.size() == std::size_t(10 - pongs));
  for (const auto& e : dropped) {
    CHECK(e.at("code") == "rate_limited");
    // A token comes back every 500 ms: the wait is at most that, and more than nothing.
    CHECK(e.at("retry_ms").get<std::int64_t>() > 0);
    CHECK(e.at("retry_ms").get<std::int64_t>() <= 500);
  }
  // After that wait, a message is taken again.
  std::this_thread::sleep_for(std::chrono::milliseconds(dropped.back().at("retry_ms")));
  program.send({{"type", "ping"}, {"id", "after"}});
  CHECK(program.next().at("type") == "pong");
  // A person on the same server is not held to the bots' rate.
  auto ana = guest(port, "Ana");
  for (int i = 0; i < 10; ++i) ana.client->send({{"type", "ping"}, {"id", i}});
  for (int i = 0; i < 10; ++i) CHECK(ana.client->next().at("type") == "pong");
}
