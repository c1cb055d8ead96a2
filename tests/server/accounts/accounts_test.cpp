// Accounts on a real server process (docs/protocol.md, "Accounts"): a claim, a login on another
// connection and over HTTP, usernames compared case-folded in NFC, the password rule, failed
// logins locked per account and per address and unlocked after the lock, logout (one token and
// every one), a password change, the export, the deletion, ranked play kept for accounts; and no
// password or hash in any log line.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/accounts/support.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

// Ana (seat 0) and Bo play mancala-simple, and Ana resigns: one finished game.
std::string finished_game(ProtocolClient& ana, ProtocolClient& bo) {
  ana.send({{"type", "create"}, {"id", "c"}, {"game", "mancala-simple"}});
  std::string room = ana.expect("created").at("room");
  bo.send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
  bo.expect("joined");
  state_at(ana, 1), state_at(bo, 1);
  ana.send({{"type", "say"}, {"room", room}, {"channel", "players"}, {"text", "good luck, Bo"}});
  ana.send({{"type", "resign"}, {"id", "r"}, {"room", room}});
  for (json s = ana.next(); s.value("status", "") != "finished";) s = ana.next();
  ana.heard(), bo.heard();  // the line said, the ok: nothing left unread
  return room;
}

}  // namespace

TEST_CASE("a guest claims an account, and logs in to it on another connection and over HTTP",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = guest(server.port(), "Ana");
  json claimed = claim(*ana.client, "Ana.Player");
  CHECK(claimed.at("type") == "ok");
  CHECK(claimed.at("recovery_code").get<std::string>().size() == 24);
  // The connection's own token still brings it back, now with its account.
  ProtocolClient again(server.port());
  auto w = again.hello("", ana.token);
  CHECK(w.at("player").at("id") == ana.id);
  CHECK(w.at("account") == json{{"username", "Ana.Player"}});

  ProtocolClient phone(server.port());
  json welcome = login(phone, "ana.PLAYER");  // the username in another case
  REQUIRE(welcome.at("type") == "welcome");
  CHECK(welcome.at("player") == json{{"id", ana.id}, {"name", "Ana"}, {"account", true}});
  CHECK(welcome.at("account") == json{{"username", "Ana.Player"}});
  CHECK(welcome.at("token") != ana.token);  // a fresh one for this device
  CHECK_FALSE(refused_token(server.port(), welcome.at("token")));

  auto r = http_login(server.port(), "Ana.Player");
  REQUIRE(r.status == 200);
  json body = json::parse(r.body);
  CHECK(body.at("player").at("id") == ana.id);
  CHECK(body.at("username") == "Ana.Player");
  CHECK(body.at("token") != welcome.at("token"));
  CHECK_FALSE(refused_token(server.port(), body.at("token")));

  SECTION("the same identity: a name given with the login renames it") {
    ProtocolClient tablet(server.port());
    tablet.send({{"type", "hello"},
                 {"id", "h"},
                 {"name", "Ana B"},
                 {"login", {{"username", "Ana.Player"}, {"password", kPassword}}}});
    CHECK(tablet.expect("welcome").at("player").at("name") == "Ana B");
  }
  SECTION("a guest's welcome has no account; an identity has one account only") {
    auto bo = guest(server.port(), "Bo");
    ProtocolClient c(server.port());
    CHECK_FALSE(c.hello("", bo.token).contains("account"));
    auto again = claim(*ana.client, "Another");
    CHECK(again.at("code") == "bad_message");
    CHECK_THAT(again.at("message").get<std::string>(), Catch::Contains("has an account already"));
  }
  SECTION("a login with a token is refused, as is a hello after the welcome") {
    ProtocolClient c(server.port());
    c.send({{"type", "hello"},
            {"id", "h"},
            {"token", ana.token},
            {"login", {{"username", "Ana.Player"}, {"password", kPassword}}}});
    CHECK(c.expect("error").at("code") == "bad_message");
  }
}

TEST_CASE(
    "a username is taken in any case and any normalization form, and names and passwords "
    "follow their rules",
    "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir);
  // Named apart from the usernames below: an account holder's name is protected too (names_test).
  auto zoe = guest(server.port(), "Z");
  REQUIRE(claim(*zoe.client, "Zo\u00eb").at("type") == "ok");  // ë composed
  for (const char* other : {"ZO\u00cb", "zoe\u0308", "ZOE\u0308"}) {
    auto g = guest(server.port(), "Other");
    json r = claim(*g.client, other);
    INFO(other);
    CHECK(r.at("code") == "username_taken");
  }
  auto g = guest(server.port(), "Other");
  CHECK(claim(*g.client, "<zoe>").at("code") == "bad_name");
  CHECK(claim(*g.client, "Zoe2", "short").at("code") == "weak_password");
  CHECK(claim(*g.client, "Zoe2", "password123").at("code") == "weak_password");
  CHECK(claim(*g.client, "Zoe the Second", "zoe the second").at("code") == "weak_password");
  CHECK(claim(*g.client, "Zoe").at("type") == "ok");  // no diaeresis: another name
  // A login by any form of the name finds the account.
  ProtocolClient c(server.port());
  CHECK(login(c, "zoe\u0308").at("player").at("id") == zoe.id);
}

TEST_CASE("wrong passwords make the account's logins wait, and the wait ends",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir, {"--login-lockout", "2"});
  auto ana = ana_account(server.port());
  ProtocolClient c(server.port());
  CHECK(login(c, "nobody at all").at("code") == "bad_login");  // unknown: the same answer
  // Refused hellos: the same connection may try again. Five are free, then 1 s, then 2 s (the
  // --login-lockout cap) between attempts. The right password comes at once after the sixth, well
  // inside its 2 s even when a password's hash is slow.
  for (int i = 0; i < 6; ++i) {
    if (i == 5) std::this_thread::sleep_for(1100ms);
    json r = login(c, "ana", "not my password " + std::to_string(i));
    CHECK(r.at("code") == "bad_login");
    CHECK(r.at("message") == "wrong username or password");
  }
  json waiting = login(c, "ana");  // the right password, too soon: the same answer again
  CHECK(waiting.at("code") == "bad_login");
  CHECK(waiting.at("message") == "wrong username or password");
  std::this_thread::sleep_for(2100ms);
  json welcome = login(c, "ana");
  REQUIRE(welcome.at("type") == "welcome");
  CHECK(welcome.at("player").at("id") == ana.id);
  auto metrics = http_get(server.port(), "/metrics").body;
  CHECK_THAT(metrics, Catch::Contains("tanbo_logins_total{result=\"bad_login\"} 7"));
  CHECK_THAT(metrics, Catch::Contains("tanbo_logins_total{result=\"delayed\"} 1"));
  CHECK_THAT(metrics, Catch::Contains("tanbo_logins_total{result=\"ok\"} 1"));
  CHECK_THAT(metrics, Catch::Contains("tanbo_account_events_total{event=\"claimed\"} 1"));
}

TEST_CASE("failed logins from one address lock that address only", "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir, {"--trusted-proxies", "127.0.0.1", "--login-lockout", "30"});
  auto ana = ana_account(server.port());
  const std::string attacker = "203.0.113.7";
  // Twenty names, four tries each below the account's lock: the address's limit is reached.
  for (int i = 0; i < 20; ++i)
    CHECK(http_login(server.port(), "user" + std::to_string(i), "guess guess guess", attacker)
              .status == 401);
  auto r = http_login(server.port(), "ana", kPassword, attacker);
  CHECK(r.status == 429);
  ProtocolClient from_there(server.port(), attacker);
  CHECK(login(from_there, "ana").at("code") == "login_locked");
  CHECK(http_login(server.port(), "ana", kPassword, "198.51.100.4").status == 200);
}

TEST_CASE("logout: this token, or every token, which are refused from then on",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = ana_account(server.port());
  ProtocolClient phone(server.port());
  const std::string phone_token = login(phone, "ana").at("token");
  const std::string web_token = json::parse(http_login(server.port(), "ana").body).at("token");

  SECTION("everywhere: every device's token, and the live connections close") {
    CHECK(ask(*ana.client, {{"type", "logout"}, {"everywhere", true}}).at("type") == "ok");
    CHECK(ana.client->expect_close() == 1000);
    json pushed = phone.next();
    CHECK(pushed.at("code") == "bad_token");
    CHECK(pushed.at("re").is_null());
    CHECK(phone.expect_close() == 1000);
    for (const auto& t : {ana.token, phone_token, web_token})
      CHECK(refused_token(server.port(), t));
    ProtocolClient back(server.port());
    CHECK(login(back, "ana").at("player").at("id") == ana.id);  // the account stays
  }
  SECTION("this token only") {
    CHECK(ask(phone, {{"type", "logout"}}).at("type") == "ok");
    CHECK(phone.expect_close() == 1000);
    CHECK(refused_token(server.port(), phone_token));
    CHECK_FALSE(refused_token(server.port(), ana.token));
    CHECK_FALSE(refused_token(server.port(), web_token));
  }
  SECTION("over HTTP, with the bearer token") {
    auto r = http_request(server.port(), "POST", "/api/logout", "Bearer " + web_token,
                          R"({"everywhere": true})");
    CHECK(r.status == 200);
    CHECK(ana.client->expect_close() == 1000);
    for (const auto& t : {ana.token, phone_token, web_token})
      CHECK(refused_token(server.port(), t));
    CHECK(http_request(server.port(), "POST", "/api/logout", "Bearer " + web_token).status == 401);
  }
  SECTION("a guest cannot log out: it would lose its identity") {
    auto bo = guest(server.port(), "Bo");
    CHECK(ask(*bo.client, {{"type", "logout"}}).at("code") == "no_account");
    CHECK_FALSE(refused_token(server.port(), bo.token));
  }
}

TEST_CASE("a password change needs the current one and revokes the other devices",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = ana_account(server.port());
  ProtocolClient phone(server.port());
  const std::string phone_token = login(phone, "ana").at("token");
  const std::string fresh = "a much better passphrase";
  auto change = [&](const std::string& current, const std::string& next) {
    return ask(*ana.client,
               {{"type", "change_password"}, {"current", current}, {"password", next}});
  };
  CHECK(change("not the password", fresh).at("code") == "bad_login");
  CHECK(change(kPassword, "1234567890").at("code") == "weak_password");
  CHECK(change(kPassword, fresh).at("type") == "ok");
  CHECK(phone.next().at("code") == "bad_token");
  CHECK(phone.expect_close() == 1000);
  CHECK(refused_token(server.port(), phone_token));
  CHECK_FALSE(refused_token(server.port(), ana.token));  // this device stays logged in
  ProtocolClient c(server.port());
  CHECK(login(c, "ana").at("code") == "bad_login");
  CHECK(login(c, "ana", fresh).at("player").at("id") == ana.id);
  auto bo = guest(server.port(), "Bo");
  CHECK(ask(*bo.client, {{"type", "change_password"}, {"current", "x"}, {"password", fresh}})
            .at("code") == "no_account");
}

TEST_CASE("export and deletion: the data kept, then the identity gone and its games kept",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = guest(server.port(), "Ana");
  auto bo = guest(server.port(), "Bo");
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
  const std::string bearer = "Bearer " + ana.token;
  const std::string room = finished_game(*ana.client, *bo.client);

  auto r = http_request(server.port(), "GET", "/api/me/export", bearer);
  REQUIRE(r.status == 200);
  CHECK_THAT(r.content_disposition, Catch::Contains("tanbo-" + ana.id + ".json"));
  json doc = json::parse(r.body);
  CHECK(doc.at("identity") == json{{"id", ana.id}, {"name", "Ana"}});
  CHECK(doc.at("account").at("username") == "ana");
  REQUIRE(doc.at("games").size() == 1);
  CHECK(doc.at("games")[0].at("id") == room + "-1");
  REQUIRE(doc.at("chat").size() == 1);
  CHECK(doc.at("chat")[0].at("text") == "good luck, Bo");
  CHECK(doc.at("exported_at").is_number());
  CHECK(r.body.find("argon2") == std::string::npos);
  CHECK(http_request(server.port(), "GET", "/api/me/export").status == 401);
  CHECK(http_request(server.port(), "GET", "/api/me/export", "Bearer nonsense").status == 401);

  SECTION("deleted with the password: games stay under \"deleted player\"") {
    auto wrong = http_request(server.port(), "DELETE", "/api/me", bearer,
                              R"({"password": "not the password"})");
    CHECK(wrong.status == 403);
    CHECK_THAT(wrong.body, Catch::Contains("bad_login"));
    CHECK(http_request(server.port(), "DELETE", "/api/me", bearer).status == 400);
    auto gone = http_request(server.port(), "DELETE", "/api/me", bearer,
                             json{{"password", kPassword}}.dump());
    REQUIRE(gone.status == 200);
    CHECK(json::parse(gone.body) == json{{"deleted", ana.id}});
    json pushed = ana.client->next();
    while (pushed.at("type") != "error") pushed = ana.client->next();  // a room's last pushes
    CHECK(pushed.at("code") == "bad_token");
    CHECK(ana.client->expect_close() == 1000);
    CHECK(refused_token(server.port(), ana.token));
    ProtocolClient c(server.port());
    CHECK(login(c, "ana").at("code") == "bad_login");
    json game = get_json(server.port(), "/api/games/" + room + "-1");
    CHECK(game.at("players_info")[0].at("name") == "deleted player");
    CHECK(game.at("players_info")[1].at("name") == "Bo");
    CHECK(claim(*bo.client, "ana").at("type") == "ok");  // the username is free again
  }
  SECTION("not while a game is unfinished; a guest needs no password") {
    auto cid = guest(server.port(), "Cid");
    cid.client->send({{"type", "create"}, {"id", "c"}, {"game", "mancala-simple"}});
    const std::string waiting = cid.client->expect("created").at("room");
    // The lobby lists the room a moment after `created`.
    for (int i = 0;
         i < 50 && get_json(server.port(), "/api/players/" + cid.id + "/games").at("games").empty();
         ++i)
      std::this_thread::sleep_for(50ms);
    auto r = http_request(server.port(), "DELETE", "/api/me", "Bearer " + cid.token);
    CHECK(r.status == 409);
    CHECK(json::parse(r.body).at("error").at("rooms") == json{waiting});
    auto bo_gone = http_request(server.port(), "DELETE", "/api/me", "Bearer " + bo.token);
    CHECK(bo_gone.status == 200);
    CHECK(refused_token(server.port(), bo.token));
  }
}

TEST_CASE("ranked rooms and pools for accounts only, with --ranked-requires-account",
          "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir, {"--ranked-requires-account"});
  auto ana = guest(server.port(), "Ana");
  json ranked = {{"type", "create"}, {"game", "mancala-simple"}, {"ranked", true}};
  json seek = {{"type", "seek"}, {"game", "mancala-simple"}, {"ranked", true}};
  CHECK(ask(*ana.client, ranked).at("code") == "account_required");
  CHECK(ask(*ana.client, seek).at("code") == "account_required");
  CHECK(ask(*ana.client, {{"type", "create"}, {"game", "mancala-simple"}}).at("type") == "created");
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
  json made = ask(*ana.client, ranked);
  REQUIRE(made.at("type") == "created");
  auto bo = guest(server.port(), "Bo");
  json join = ask(*bo.client, {{"type", "join"}, {"room", made.at("room")}, {"as", "player"}});
  CHECK(join.at("code") == "account_required");
  json watch = ask(*bo.client, {{"type", "join"}, {"room", made.at("room")}, {"as", "spectator"}});
  CHECK(watch.at("type") == "joined");  // anyone may watch
}

TEST_CASE("no password and no hash ever reaches the log", "[server][accounts]") {
  DataDir dir;
  ServerProcess server(dir, {"--log-level", "debug", "--login-lockout", "1"});
  const std::vector<std::string> secrets = {kPassword, "my new passphrase", "a wrong guess here"};
  auto ana = ana_account(server.port());
  ProtocolClient c(server.port());
  CHECK(login(c, "ana", secrets[2]).at("code") == "bad_login");
  CHECK(login(c, secrets[2], secrets[2]).at("code") == "bad_login");  // a password as username
  CHECK(ask(*ana.client,
            {{"type", "change_password"}, {"current", kPassword}, {"password", secrets[1]}})
            .at("type") == "ok");
  CHECK(http_login(server.port(), "ana", secrets[1]).status == 200);
  CHECK(claim(*guest(server.port(), "Bo").client, "bo", "short").at("code") == "weak_password");
  CHECK(http_request(server.port(), "DELETE", "/api/me", "Bearer " + ana.token,
                     json{{"password", secrets[1]}}.dump())
            .status == 200);
  server.terminate();
  const std::string& log = server.log();
  CHECK_THAT(log, Catch::Contains("claimed the username ana"));
  CHECK_THAT(log, Catch::Contains("failed login"));
  for (const auto& s : secrets) CHECK(log.find(s) == std::string::npos);
  CHECK(log.find("argon2") == std::string::npos);
  CHECK(log.find("$argon") == std::string::npos);
}
