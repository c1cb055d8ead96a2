// Names that impersonate, on a real server process (docs/protocol.md, "Names"): once "Ana" holds
// an account, no one else may take a name that looks like it, in any case, script or width;
// names that look like the server's own are refused to everyone; and every player object says
// who holds an account, so that a guest cannot pass for one.
#include <catch2/catch.hpp>

#include <SQLiteCpp/Database.h>

#include <thread>

#include "tests/server/accounts/support.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

// A namespace of its own: the unity build puts this file beside others with helpers of the same
// names in their anonymous namespaces.
namespace names_test {
namespace {

// The answer to a hello with `name` (and `token`, when given) on a fresh connection.
json hello(std::uint16_t port, const std::string& name, const std::string& token = "") {
  ProtocolClient c(port);
  json h = {{"type", "hello"}, {"id", "h"}, {"name", name}};
  if (!token.empty()) h["token"] = token;
  c.send(h);
  return c.next();
}

// The next chat line `c` reads, past the states, oks and joins that come before it.
json next_said(ProtocolClient& c) {
  for (;;)
    if (json m = c.next(); m.at("type") == "said") return m;
}

std::string code(const json& answer) { return answer.value("code", answer.at("type")); }

// What a guest's hello with `name` makes of it: the code of the refusal, or "welcome".
std::string new_guest(std::uint16_t port, const std::string& name) {
  return code(hello(port, name));
}

const std::string kCyrillicAna = "\u0410na";             // А, then Latin "na"
const std::string kFullwidthAna = "\uFF21\uFF4E\uFF41";  // Ａｎａ
const std::string kGreekAna = "\u0391n\u03B1";           // Α, n, α

}  // namespace

TEST_CASE("a name that is an account's, or looks like one, is refused to everyone else",
          "[server][accounts][names]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  auto early = guest(port, "Ana");  // a guest named before the account: keeps its name
  auto ana = guest(port, "Ana");    // two guests may share a name
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");

  for (const auto& name : {std::string("Ana"), std::string("ANA"), kCyrillicAna, kFullwidthAna,
                           kGreekAna, std::string("\u0430n\u0430")}) {
    INFO(name);
    json refused = hello(port, name);
    CHECK(refused.at("code") == "name_reserved");
    CHECK(refused.at("re") == "h");
    CHECK_THAT(refused.at("message").get<std::string>(),
               Catch::Contains("an account's, or looks like one"));
  }
  CHECK(new_guest(port, "Anna") == "welcome");  // another name

  SECTION("the account's holder keeps and takes its own name") {
    json back = hello(port, "Ana", ana.token);
    REQUIRE(back.at("type") == "welcome");
    CHECK(back.at("player") == json{{"id", ana.id}, {"name", "Ana"}, {"account", true}});
    CHECK(code(hello(port, kCyrillicAna, ana.token)) == "welcome");  // its own, in any form
    ProtocolClient phone(port);
    phone.send({{"type", "hello"},
                {"id", "h"},
                {"name", "ANA"},
                {"login", {{"username", "ana"}, {"password", kPassword}}}});
    CHECK(phone.expect("welcome").at("player").at("name") == "ANA");
  }
  SECTION("a guest may not rename itself to it; the earlier namesake keeps its name") {
    auto bo = guest(port, "Bo");
    json refused = hello(port, kCyrillicAna, bo.token);
    CHECK(refused.at("code") == "name_reserved");
    CHECK(hello(port, "Bo", bo.token).at("player").at("name") == "Bo");  // nothing changed
    json kept = hello(port, "Ana", early.token);
    REQUIRE(kept.at("type") == "welcome");
    CHECK(kept.at("player") == json{{"id", early.id}, {"name", "Ana"}});  // no account: no mark
    // ... but it cannot become an account holder under that name.
    CHECK(claim(*early.client, "early bird").at("code") == "name_reserved");
  }
  SECTION("a username that looks like the account's, or like its holder's name") {
    auto cy = guest(port, "Cy");
    CHECK(claim(*cy.client, "ANA").at("code") == "username_taken");  // the same, in capitals
    CHECK(claim(*cy.client, kCyrillicAna).at("code") == "name_reserved");
    CHECK(claim(*cy.client, kFullwidthAna).at("code") == "username_taken");  // NFKC: "Ana"
    auto di = guest(port, "Di");
    REQUIRE(claim(*di.client, "dee").at("type") == "ok");
    CHECK(claim(*cy.client, "Di").at("code") == "name_reserved");  // Di's display name
    CHECK(claim(*cy.client, "Cy").at("type") == "ok");
  }
  SECTION("a lookalike of a logged-in rename is refused, and the login's token goes with it") {
    auto eve = guest(port, "Eve");
    REQUIRE(claim(*eve.client, "eve").at("type") == "ok");
    ProtocolClient c(port);
    c.send({{"type", "hello"},
            {"id", "h"},
            {"name", kCyrillicAna},
            {"login", {{"username", "eve"}, {"password", kPassword}}}});
    CHECK(c.expect("error").at("code") == "name_reserved");
    CHECK(hello(port, "Eve", eve.token).at("player").at("name") == "Eve");
  }
}

TEST_CASE("names that look like the server's own, or show nothing, are refused",
          "[server][names]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  std::string stacked = "a";
  for (int i = 0; i < 24; ++i) stacked += "\u0301";
  for (const auto& name :
       {std::string("deleted player"), std::string("Deleted-Player"), std::string("Guest 1a2b"),
        std::string("guest_1A2B"), std::string("CPU mcts"), std::string("Computer 2"),
        std::string("admin"), std::string("Tanbo Staff"), std::string("\u3164"),
        std::string("\u115F\u1160"), std::string("\uFFA0\uFFA0"), std::string("Ana\u3164"),
        stacked}) {
    INFO(name);
    json refused = hello(port, name);
    CHECK(refused.at("code") == "bad_name");
    CHECK_THAT(refused.at("message").get<std::string>(), Catch::StartsWith("field \"name\": "));
  }
  auto g = guest(port, "Someone");
  CHECK(claim(*g.client, "Moderator").at("code") == "bad_name");
  // A generated guest name is the server's to give, and stays its holder's.
  auto generated = guest(port, "");
  CHECK_THAT(generated.name, Catch::StartsWith("Guest "));
  CHECK(hello(port, generated.name, generated.token).at("type") == "welcome");
  // Real names, fullwidth letters made plain.
  CHECK(hello(port, "\uFF2A\uFF4F").at("player").at("name") == "Jo");
  CHECK(hello(port, "Nguy\u1EC5n Th\u1ECB").at("type") == "welcome");
  CHECK(hello(port, "\uFF80\uFF85\uFF76").at("player").at("name") == "\u30BF\u30CA\u30AB");
  CHECK(hello(port, "N\u2019Diaye").at("type") == "welcome");
}

TEST_CASE("every player object says who holds an account", "[server][accounts][names]") {
  DataDir dir;
  ServerProcess server(dir);
  const auto port = server.port();
  auto ana = guest(port, "Ana");
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
  ProtocolClient fresh(port);  // the room learns the account from the identity of a hello
  auto w = fresh.hello("", ana.token);
  CHECK(w.at("player").at("account") == true);
  auto bo = guest(port, "Bo");
  fresh.send({{"type", "create"}, {"id", "c"}, {"game", "mancala-simple"}});
  const std::string room = fresh.expect("created").at("room");
  bo.client->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
  bo.client->expect("joined");
  json state = state_at(*bo.client, 1);
  CHECK(state.at("seats")[0].at("player") ==
        json{{"id", ana.id}, {"name", "Ana"}, {"account", true}});
  CHECK(state.at("seats")[1].at("player") == json{{"id", bo.id}, {"name", "Bo"}});
  fresh.send({{"type", "say"}, {"room", room}, {"channel", "players"}, {"text", "hello"}});
  json said = next_said(*bo.client);
  CHECK(said.at("from") == json{{"id", ana.id}, {"name", "Ana"}, {"account", true}});
  bo.client->send({{"type", "say"}, {"room", room}, {"channel", "players"}, {"text", "hi"}});
  CHECK(next_said(fresh).at("from").at("name") == "Ana");  // its own line first
  CHECK_FALSE(next_said(fresh).at("from").contains("account"));
  auto listed = get_json(port, "/api/rooms").at("rooms");
  REQUIRE(listed.size() == 1);
  CHECK(listed[0].at("seats")[0].at("player").at("account") == true);
  CHECK_FALSE(listed[0].at("seats")[1].at("player").contains("account"));
}

TEST_CASE("the names accounts protect outlast a restart, and are filled in for old accounts",
          "[server][accounts][names]") {
  DataDir dir;
  std::string id;
  {
    ServerProcess server(dir);
    auto ana = guest(server.port(), "Ana");
    REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
    id = ana.id;
    REQUIRE(new_guest(server.port(), kCyrillicAna) == "name_reserved");
    REQUIRE(server.terminate() == 0);
  }
  {
    // As a database migrated from schema 7 has it: accounts, but no protected names yet.
    SQLite::Database db(dir.db().string(), SQLite::OPEN_READWRITE);
    CHECK(db.execAndGet("SELECT count(*) FROM name_skeletons WHERE identity = '" + id + "'")
              .getInt() > 0);
    db.exec("DELETE FROM name_skeletons");
  }
  ServerProcess server(dir);
  CHECK(new_guest(server.port(), kCyrillicAna) == "name_reserved");
  CHECK(new_guest(server.port(), "Ana") == "name_reserved");
  CHECK_THAT(server.log(), Catch::Contains("the protected names of 1 accounts stored"));
  SQLite::Database db(dir.db().string(), SQLite::OPEN_READONLY);
  CHECK(db.execAndGet("SELECT count(*) FROM name_skeletons").getInt() > 0);
}

}  // namespace names_test

TEST_CASE("of two lookalike usernames claimed at once, one is refused",
          "[server][accounts][names]") {
  using namespace names_test;
  DataDir dir;
  ServerProcess server(dir);
  auto a = guest(server.port(), "First");
  auto b = guest(server.port(), "Second");
  // Both checks before either claim is stored: the claims' store step must settle it.
  nlohmann::json first, second;
  std::thread t([&] { first = claim(*a.client, "Ana"); });
  second = claim(*b.client, kCyrillicAna);
  t.join();
  CAPTURE(first, second);
  CHECK(code(first) != code(second));
  for (const auto* r : {&first, &second}) CHECK((code(*r) == "ok" || code(*r) == "name_reserved"));
}
