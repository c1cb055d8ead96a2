// protocol/openapi.json against a real server over a real SQLite store: every operation of the
// file called with its documented example request, each answer checked against what the file
// documents (status, media type, the body against the response's schema). The server is first
// given what the examples need: a finished ranked game with a chat line and a report, a game
// waiting for its player, a Play now seeker, an account with mail. An operation the test does not
// call, or a call the file does not document, fails it.
#include <catch2/catch.hpp>

#include <fstream>
#include <thread>

#include "tests/server/api/openapi_support.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/server/support/mailbox.hpp"

using namespace tanbo_server::server::test;
using namespace tanbo_server::server::test::openapi;
using nlohmann::json;

namespace {

constexpr const char* kAdminToken = "openapi-operator-token-0123456789";
// The password the examples of a login give (docs/protocol.md, "Accounts").
constexpr const char* kFirstPassword = "a much better passphrase";

struct World {
  Guest ana, ben, cleo, dan, gil;
  std::string game_id, finished_room, recovery_code;
};

// The reply to `msg`, past the pushes that come first.
json answer(ProtocolClient& c, json msg) {
  msg["id"] = "q";
  c.send(msg);
  for (;;)
    if (json m = c.next(); m.value("re", json()) == "q") return m;
}

// Ana and Ben play a ranked game: Ana moves and says "good game", Ben resigns; Ana reports Ben.
void finished_game(World& w, std::uint16_t port) {
  w.ana = guest(port, "Ana");
  w.ben = guest(port, "Ben");
  auto created = answer(*w.ana.client, {{"type", "create"},
                                        {"game", "mancala-simple"},
                                        {"ranked", true},
                                        {"options", {{"first", 0}}}});
  w.finished_room = created.at("room");
  REQUIRE(answer(*w.ben.client, {{"type", "join"}, {"room", w.finished_room}, {"as", "player"}})
              .at("type") == "joined");
  auto first = state_at(*w.ana.client, 1);
  w.ana.client->send({{"type", "act"},
                      {"room", w.finished_room},
                      {"version", 1},
                      {"action", first.at("legal").at(0)}});
  state_at(*w.ana.client, 2);
  w.ana.client->send(
      {{"type", "say"}, {"room", w.finished_room}, {"channel", "players"}, {"text", "good game"}});
  REQUIRE(w.ana.client->expect("said").at("n") == 1);
  REQUIRE(answer(*w.ben.client, {{"type", "resign"}, {"room", w.finished_room}}).at("type") ==
          "ok");
  REQUIRE(answer(*w.ana.client, {{"type", "report"},
                                 {"player", w.ben.id},
                                 {"room", w.finished_room},
                                 {"reason", "abuse"}})
              .at("type") == "ok");
  w.game_id = w.finished_room + "-1";
}

World populate(std::uint16_t port) {
  World w;
  finished_game(w, port);
  // Cleo plays the computer and moves first: her game waits for her.
  w.cleo = guest(port, "Cleo");
  auto created =
      answer(*w.cleo.client,
             {{"type", "create"}, {"game", "mancala-simple"}, {"options", {{"first", 0}}}});
  REQUIRE(answer(*w.cleo.client,
                 {{"type", "fill_cpu"}, {"room", created.at("room")}, {"level", "random"}})
              .at("type") == "ok");
  // Dan waits in Play now's pool.
  w.dan = guest(port, "Dan");
  REQUIRE(answer(*w.dan.client, {{"type", "seek"}, {"game", "mancala-simple"}}).at("type") ==
          "seeking");
  w.gil = guest(port, "Gil");
  auto claimed =
      answer(*w.gil.client, {{"type", "claim"}, {"username", "gil"}, {"password", kFirstPassword}});
  REQUIRE(claimed.at("type") == "ok");
  // The leaderboard is written with the game's end; wait until it shows both players.
  for (int i = 0;
       i < 200 &&
       get_json(port, "/api/leaderboard?game=mancala-simple").at("leaderboard").size() < 2;
       ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  return w;
}

struct Calls {
  std::uint16_t port;
  std::set<Operation> called;
  json operator()(Call call) {
    called.emplace(call.method, call.path);
    auto reply = check_call(port, call);
    if (call.method == "head" || reply.content_type != "application/json") return json();
    return json::parse(reply.body);
  }
};

void reads(Calls& call, const World& w) {
  const std::map<std::string, std::string> game{{"id", w.game_id}};
  for (const char* method : {"get", "head"}) {
    call({method, "/healthz"});
    call({method, "/metrics"});
    call({method, "/api/games", {{"player", w.ana.id}}});
    call({method, "/api/games/{id}", game});
    call({method, "/api/games/{id}/steps", game});
    call({method, "/api/players/{id}", {{"id", w.ana.id}}});
    call({method, "/api/players/{id}/games", {{"id", w.cleo.id}}});
    call({method, "/api/leaderboard"});
    call({method, "/api/rooms"});
    call({method, "/api/pools"});
  }
  auto listed = call({"get", "/api/games", {{"player", w.ana.id}}});
  CHECK(listed.at("games").at(0).at("id") == w.game_id);
  CHECK(call({"get", "/api/games/{id}", game}).at("chat").size() == 1);
  CHECK(call({"get", "/api/players/{id}/games", {{"id", w.cleo.id}}}).at("games").size() == 1);
  CHECK(call({"get", "/api/leaderboard"}).at("leaderboard").size() == 2);
  CHECK(call({"get", "/api/pools"}).at("pools").size() == 1);
  call({"get", "/ws", {}, json::object(), "", 426});
  call({"get", "/api/server"});
}

void moderation(Calls& call, const World& w) {
  const std::map<std::string, std::string> line{
      {"room", w.finished_room}, {"channel", "players"}, {"n", "1"}};
  CHECK(call({"get", "/api/admin/reports", {}, json::object(), kAdminToken}).at("reports").size() ==
        1);
  auto chat =
      call({"get", "/api/admin/rooms/{room}/chat/{channel}", line, json::object(), kAdminToken});
  CHECK(chat.at("lines").size() == 1);
  call({"delete", "/api/admin/rooms/{room}/chat/{channel}/{n}", line, json::object(), kAdminToken});
  const std::map<std::string, std::string> ben{{"id", w.ben.id}};
  for (const char* path :
       {"/api/admin/identities/{id}/shadow-mute", "/api/admin/identities/{id}/ban"}) {
    call({"put", path, ben, json::object(), kAdminToken});
    call({"delete", path, ben, json::object(), kAdminToken});
  }
}

// Gil's account plays bots, holds an access token for a while, then becomes a bot itself.
void bots(Calls& call, const std::string& session) {
  CHECK(call({"get", "/api/me/bot", {}, json::object(), session}).at("bot") == false);
  CHECK(call({"put", "/api/me/play_bots", {}, json::object(), session}).at("play_bots") == true);
  auto made = call({"post", "/api/me/tokens", {}, json::object(), session});
  const std::string access = made.at("token");
  const std::string id = made.at("tokens").at(0).at("id");
  CHECK(call({"get", "/api/me/tokens", {}, json::object(), session}).at("tokens").size() == 1);
  // A program's token reads the account's settings, but makes no tokens.
  CHECK(call({"get", "/api/me/bot", {}, json::object(), access}).at("play_bots") == true);
  call({"get", "/api/me/tokens", {}, json::object(), access, 403});
  call({"delete", "/api/me/tokens/{id}", {{"id", id}}, json::object(), session});
  call({"get", "/api/me/bot", {}, json::object(), access, 401});
  CHECK(call({"post", "/api/me/bot", {}, json::object(), session}).at("bot") == true);
}

// Gil's account through every call of its own, in the order the examples tell it.
void account(Calls& call, World& w, const Mailbox& box) {
  const std::string t1 = call({"post", "/api/login"}).at("token");
  auto sessions = call({"get", "/api/me/sessions", {}, json::object(), t1}).at("sessions");
  REQUIRE(sessions.size() == 2);
  const std::string other = sessions[sessions[0].at("current") ? 1 : 0].at("id");
  call({"delete", "/api/me/sessions/{id}", {{"id", other}}, json::object(), t1});
  const std::string code =
      call({"post", "/api/me/recovery", {}, json::object(), t1}).at("recovery_code");
  const std::string spare =
      json::parse(http_request(call.port, "POST", "/api/login", "",
                               json{{"username", "gil"}, {"password", kFirstPassword}}.dump())
                      .body)["token"];
  call({"post", "/api/logout", {}, json::object(), spare});
  const std::string t2 = call({"post", "/api/recover", {}, {{"code", code}}}).at("token");
  call({"put", "/api/me/mail", {}, json::object(), t2});
  call({"get", "/api/me/mail", {}, json::object(), t2});
  call(
      {"post", "/api/mail/confirm", {}, {{"token", mail_link_token(box.wait(1), "confirm-mail")}}});
  call({"post", "/api/password/forgot"});
  const std::string t3 =
      call({"post", "/api/password/reset", {}, {{"token", mail_link_token(box.wait(2), "reset")}}})
          .at("token");
  call({"delete", "/api/me/mail", {}, json::object(), t3});
  bots(call, t3);
  auto exported = call({"get", "/api/me/export", {}, json::object(), t3});
  CHECK(exported.at("identity").at("id") == w.gil.id);
  CHECK(call({"delete", "/api/me", {}, json::object(), t3}).at("deleted") == w.gil.id);
}

void documents(Calls& call) {
  auto answer = check_call(call.port, {"get", "/api/openapi.json"});
  CHECK(answer.body == spec().text);
  const std::string etag = answer.headers["etag"];
  CHECK(answer.headers["cache-control"] == "no-cache");
  call({"get", "/api/openapi.json"});
  call({"get", "/api/openapi.json", {{"If-None-Match", etag}}, json::object(), "", 304});
  call({"head", "/api/openapi.json"});
  std::ifstream in(std::string(TANBO_SOURCE_DIR) + "/protocol/schema/common.json",
                   std::ios::binary);
  const std::string common((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(check_call(call.port, {"get", "/api/schema/{name}"}).body == common);
  call({"get", "/api/schema/{name}"});
  call({"head", "/api/schema/{name}"});
}

}  // namespace

TEST_CASE("every operation of protocol/openapi.json answers its example as documented",
          "[server][api][openapi]") {
  INFO([] {
    std::string all;
    for (const auto& p : spec().problems) all += p + "\n";
    return all;
  }());
  REQUIRE(spec().problems.empty());
  DataDir dir;
  Mailbox box;
  std::filesystem::create_directories(dir.path);
  const auto token_file = dir.path / "admin-token";
  std::ofstream(token_file) << kAdminToken << "\n";
  std::filesystem::permissions(token_file, std::filesystem::perms(0600));
  ServerProcess server(dir, box.flags({"--admin-token-file", token_file.string()}));
  World w = populate(server.port());
  Calls call{server.port(), {}};
  reads(call, w);
  moderation(call, w);
  account(call, w, box);
  documents(call);
  std::set<Operation> missed;
  for (const auto& op : operations())
    if (!call.called.count(op)) missed.insert(op);
  for (const auto& [method, path] : missed) FAIL_CHECK("not called: " << method << " " << path);
}
