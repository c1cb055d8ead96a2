// Recovery on a real server process (docs/protocol.md, "Recovery"): the claim says a one-time
// code; POST /api/recover with it sets a new password, ends every session and says a new code;
// a code works once; wrong codes count as failed logins of the account, under the same waits;
// the holder makes a new code with its password; common passwords are refused; a new guest's
// name is marked as the server's.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/server/accounts/support.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

HttpReply recover(std::uint16_t port, const std::string& username, const std::string& code,
                  const std::string& password = "a brand new passphrase",
                  const std::string& from = "") {
  return http_request(port, "POST", "/api/recover", "",
                      json{{"username", username}, {"code", code}, {"password", password}}.dump(),
                      from);
}

std::string code_of(const HttpReply& r) { return json::parse(r.body).value("recovery_code", ""); }
std::string error_of(const HttpReply& r) { return json::parse(r.body).at("error").at("code"); }

}  // namespace

TEST_CASE("the recovery code said at the claim sets a new password once, and ends every session",
          "[server][accounts][recovery]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = guest(server.port(), "Ana");
  json ok = claim(*ana.client, "ana");
  REQUIRE(ok.at("type") == "ok");
  const std::string code = ok.at("recovery_code");
  CHECK(code.size() == 24);
  ProtocolClient phone(server.port());
  REQUIRE(login(phone, "ana").at("type") == "welcome");

  auto r = recover(server.port(), "ANA", code);  // the username in any case, like a login
  REQUIRE(r.status == 200);
  json body = json::parse(r.body);
  CHECK(body.at("player").at("id") == ana.id);
  CHECK(body.at("username") == "ana");
  const std::string next = body.at("recovery_code");
  CHECK(next != code);
  CHECK_FALSE(refused_token(server.port(), body.at("token")));
  // Every earlier session ended: the claiming guest's token and the phone's.
  CHECK(ana.client->expect("error").at("code") == "bad_token");
  CHECK(phone.expect("error").at("code") == "bad_token");
  CHECK(refused_token(server.port(), ana.token));
  // The new password logs in; the old one and the used code no longer do.
  ProtocolClient c(server.port());
  CHECK(login(c, "ana", "a brand new passphrase").at("type") == "welcome");
  ProtocolClient d(server.port());
  CHECK(login(d, "ana").at("code") == "bad_login");
  auto again = recover(server.port(), "ana", code, "yet another passphrase");
  CHECK(again.status == 401);
  CHECK(error_of(again) == "bad_login");
  // The new code works, once.
  CHECK(recover(server.port(), "ana", next, "yet another passphrase").status == 200);

  auto metrics = http_get(server.port(), "/metrics").body;
  CHECK_THAT(metrics, Catch::Contains("tanbo_account_events_total{event=\"recovered\"} 2"));
  CHECK_THAT(metrics, Catch::Contains("tanbo_logins_total{result=\"bad_recovery\"} 1"));
  CHECK_THAT(server.log(), !Catch::Contains(code));
  CHECK_THAT(server.log(), !Catch::Contains(next));
}

TEST_CASE("wrong recovery codes wait like wrong passwords, and say nothing of the account",
          "[server][accounts][recovery]") {
  DataDir dir;
  ServerProcess server(dir, {"--login-lockout", "2"});
  auto ana = guest(server.port(), "Ana");
  const std::string code = claim(*ana.client, "ana").at("recovery_code");
  for (int i = 0; i < 6; ++i) {
    if (i == 5) std::this_thread::sleep_for(1100ms);
    auto r = recover(server.port(), "ana", "AAAA-AAAA-AAAA-AAAA-AAA" + std::to_string(i));
    CHECK(r.status == 401);
    CHECK(error_of(r) == "bad_login");
  }
  // Nobody's username, and the right code too soon: the same answer.
  CHECK(error_of(recover(server.port(), "nobody", code)) == "bad_login");
  CHECK(error_of(recover(server.port(), "ana", code)) == "bad_login");
  // A password login waits the same wait: the two count together.
  ProtocolClient c(server.port());
  CHECK(login(c, "ana").at("code") == "bad_login");
  std::this_thread::sleep_for(2100ms);
  CHECK(recover(server.port(), "ana", code).status == 200);
  // A weak new password is refused before any attempt is counted.
  auto weak = recover(server.port(), "ana", code, "sunshine2026");
  CHECK(weak.status == 400);
  CHECK(error_of(weak) == "weak_password");
}

TEST_CASE("an address that sends too many wrong codes is locked out, as for logins",
          "[server][accounts][recovery]") {
  DataDir dir;
  ServerProcess server(dir, {"--trusted-proxies", "127.0.0.1"});
  for (int i = 0; i < 20; ++i)
    CHECK(recover(server.port(), "user" + std::to_string(i), "AAAA-AAAA-AAAA-AAAA-AAAA",
                  "a brand new passphrase", "203.0.113.9")
              .status == 401);
  auto locked = recover(server.port(), "user", "AAAA-AAAA-AAAA-AAAA-AAAA", "a brand new passphrase",
                        "203.0.113.9");
  CHECK(locked.status == 429);
  CHECK(error_of(locked) == "login_locked");
  CHECK_FALSE(locked.retry_after.empty());
}

TEST_CASE("the holder makes a new code with its password, which replaces the last",
          "[server][accounts][recovery]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = guest(server.port(), "Ana");
  const std::string first = claim(*ana.client, "ana").at("recovery_code");
  auto made = [&](const std::string& password) {
    return http_request(server.port(), "POST", "/api/me/recovery", "Bearer " + ana.token,
                        json{{"password", password}}.dump());
  };
  auto wrong = made("not my password");
  CHECK(wrong.status == 403);
  CHECK(error_of(wrong) == "bad_login");
  auto r = made(kPassword);
  REQUIRE(r.status == 200);
  const std::string second = code_of(r);
  CHECK(second.size() == 24);
  CHECK(error_of(recover(server.port(), "ana", first)) == "bad_login");
  CHECK(recover(server.port(), "ana", second).status == 200);
  // A guest has no code to make.
  auto bo = guest(server.port(), "Bo");
  auto none = http_request(server.port(), "POST", "/api/me/recovery", "Bearer " + bo.token,
                           json{{"password", kPassword}}.dump());
  CHECK(none.status == 409);
  CHECK(error_of(none) == "no_account");
}

TEST_CASE("common passwords from the shipped list are refused at the claim and at a change",
          "[server][accounts][recovery]") {
  DataDir dir;
  ServerProcess server(dir);
  auto ana = guest(server.port(), "Ana");
  // From John the Ripper's list (Debian's john-data), not the built-in one.
  json r = claim(*ana.client, "ana", "strawberry");
  CHECK(r.at("code") == "weak_password");
  CHECK_THAT(r.at("message").get<std::string>(), Catch::Contains("most common"));
  CHECK(claim(*ana.client, "ana", "Dragon2026!").at("code") == "weak_password");
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
  json changed =
      ask(*ana.client,
          {{"type", "change_password"}, {"current", kPassword}, {"password", "cheerleader"}});
  CHECK(changed.at("code") == "weak_password");
}

TEST_CASE("a new guest's name is marked as the server's, a chosen one is not",
          "[server][accounts][names]") {
  DataDir dir;
  ServerProcess server(dir);
  ProtocolClient c(server.port());
  json w = c.hello("", "");
  const std::string id = w.at("player").at("id");
  CHECK(w.at("player") ==
        json{{"id", id}, {"name", "Guest " + id.substr(1, 4)}, {"default_name", true}});
  ProtocolClient named(server.port());
  CHECK_FALSE(named.hello("Mia", "").at("player").contains("default_name"));
}
