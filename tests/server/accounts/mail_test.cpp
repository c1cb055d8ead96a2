// Mail on a real server process (docs/protocol.md, "Mail"): the server runs its --mail-command,
// a sendmail-compatible stand-in (tests/server/support/mailbox.sh) that delivers each message to
// a file; the child process, the message on its stdin and its exit status are the real ones. An
// account's address counts once the link sent to it is opened; a forgotten password is asked by
// the username or the address, answered alike for everyone, and its link sets a new password
// once and ends every session; limits per account and per address; a failing or hanging command
// is logged and counted, and never holds a request.
#include <catch2/catch.hpp>

#include <fstream>
#include <thread>

#include "tests/server/accounts/support.hpp"
#include "tests/server/support/mailbox.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

std::string mail_refusal(const HttpReply& r) { return json::parse(r.body).at("error").at("code"); }

HttpReply api_call(std::uint16_t port, const std::string& method, const std::string& path,
                   const json& body, const std::string& token = "", const std::string& from = "") {
  return http_request(port, method, path, token.empty() ? "" : "Bearer " + token, body.dump(),
                      from);
}

HttpReply forgot(std::uint16_t port, const std::string& login, const std::string& from = "",
                 const std::string& lang = "en") {
  return api_call(port, "POST", "/api/password/forgot", {{"login", login}, {"lang", lang}}, "",
                  from);
}

// Ana's account with the confirmed address ana@example.org: the mailbox's mail 1.
Guest ana_with_mail(std::uint16_t port, const Mailbox& box) {
  auto ana = ana_account(port);
  auto asked = api_call(port, "PUT", "/api/me/mail",
                        {{"mail", "ana@example.org"}, {"password", kPassword}}, ana.token);
  REQUIRE(asked.status == 200);
  auto ok = api_call(port, "POST", "/api/mail/confirm",
                     {{"token", mail_link_token(box.wait(box.count() + 1), "confirm-mail")}});
  REQUIRE(ok.status == 200);
  return ana;
}

// Waits until /metrics shows `line` (the server counts in the background).
bool metrics_show(std::uint16_t port, const std::string& line) {
  for (int i = 0; i < 400; ++i) {
    if (http_get(port, "/metrics").body.find(line) != std::string::npos) return true;
    std::this_thread::sleep_for(25ms);
  }
  return false;
}

}  // namespace

TEST_CASE("without --mail-command there is no mail: the recovery code stays the way back",
          "[server][accounts][mail]") {
  DataDir dir;
  ServerProcess server(dir);
  CHECK(json::parse(http_get(server.port(), "/api/server").body) == json{{"mail", false}});
  auto r = forgot(server.port(), "ana");
  CHECK(r.status == 503);
  CHECK(mail_refusal(r) == "mail_unavailable");
  auto ana = guest(server.port(), "Ana");
  json ok = claim(*ana.client, "ana");
  CHECK(ok.contains("recovery_code"));
  auto put = api_call(server.port(), "PUT", "/api/me/mail",
                      {{"mail", "ana@example.org"}, {"password", kPassword}}, ana.token);
  CHECK(put.status == 503);
  CHECK(mail_refusal(put) == "mail_unavailable");
}

TEST_CASE("an address counts once the link sent to it is opened, and can be changed or removed",
          "[server][accounts][mail]") {
  Mailbox box;
  DataDir dir;
  ServerProcess server(dir, box.flags());
  const auto port = server.port();
  CHECK(json::parse(http_get(port, "/api/server").body) == json{{"mail", true}});
  auto ana = ana_account(port);
  auto put = [&](const std::string& mail, const std::string& password = kPassword) {
    return api_call(port, "PUT", "/api/me/mail", {{"mail", mail}, {"password", password}},
                    ana.token);
  };
  CHECK(mail_refusal(put("ana@example.org", "not my password")) == "bad_login");
  CHECK(mail_refusal(put("ana at example.org")) == "bad_mail");
  CHECK(mail_refusal(put("ana@example.org\nBcc: x@example.org")) == "bad_mail");
  auto asked = put("  Ana@Example.ORG ");
  REQUIRE(asked.status == 200);
  CHECK(json::parse(asked.body) == json{{"mail", nullptr}, {"pending", "ana@example.org"}});
  const std::string mail = box.wait(1);
  CHECK(mail_header(mail, "To") == "ana@example.org");
  CHECK(mail_header(mail, "From") == "Tanbo <tanbo@example.org>");
  CHECK(mail_header(mail, "Subject") == "Confirm your mail address for Tanbo");
  CHECK(mail_header(mail, "Content-Type") == "text/plain; charset=UTF-8");
  CHECK_THAT(mail, Catch::Contains("Hello ana,"));
  const std::string token = mail_link_token(mail, "confirm-mail");
  // Not yet the account's: a new password asked by it sends nothing.
  CHECK(forgot(port, "ana@example.org").status == 200);
  auto state = [&] {
    return json::parse(http_request(port, "GET", "/api/me/mail", "Bearer " + ana.token).body);
  };
  CHECK(state() == json{{"mail", nullptr}, {"pending", "ana@example.org"}});
  auto confirmed = api_call(port, "POST", "/api/mail/confirm", {{"token", token}});
  REQUIRE(confirmed.status == 200);
  CHECK(json::parse(confirmed.body) == json{{"mail", "ana@example.org"}});
  CHECK(state() == json{{"mail", "ana@example.org"}, {"pending", nullptr}});
  auto again = api_call(port, "POST", "/api/mail/confirm", {{"token", token}});
  CHECK(again.status == 400);
  CHECK(mail_refusal(again) == "expired_link");

  // Another account asking for Ana's address is answered alike, and nothing is sent to it.
  auto bo = guest(port, "Bo");
  REQUIRE(claim(*bo.client, "bo").at("type") == "ok");
  auto bo_asks = api_call(port, "PUT", "/api/me/mail",
                          {{"mail", "ana@example.org"}, {"password", kPassword}}, bo.token);
  CHECK(bo_asks.status == 200);
  CHECK(json::parse(bo_asks.body) == json{{"mail", nullptr}, {"pending", "ana@example.org"}});

  // A change: the old address stays until the new one is confirmed.
  REQUIRE(put("ana.new@example.org").status == 200);
  const std::string second = box.wait(2);
  CHECK(mail_header(second, "To") == "ana.new@example.org");
  CHECK(state() == json{{"mail", "ana@example.org"}, {"pending", "ana.new@example.org"}});
  REQUIRE(api_call(port, "POST", "/api/mail/confirm",
                   {{"token", mail_link_token(second, "confirm-mail")}})
              .status == 200);
  CHECK(state() == json{{"mail", "ana.new@example.org"}, {"pending", nullptr}});

  // Removed with the password: no address, and a new password asked by it sends nothing.
  auto removed = http_request(port, "DELETE", "/api/me/mail", "Bearer " + ana.token,
                              json{{"password", kPassword}}.dump());
  REQUIRE(removed.status == 200);
  CHECK(state() == json{{"mail", nullptr}, {"pending", nullptr}});
  CHECK(forgot(port, "ana.new@example.org").status == 200);
  CHECK(forgot(port, "ana").status == 200);
  CHECK(metrics_show(port, "tanbo_account_events_total{event=\"reset_asked\"} 3"));
  CHECK(metrics_show(port, "tanbo_mail_total{result=\"sent\"} 2"));
  CHECK(box.count() == 2);
  CHECK(metrics_show(port, "tanbo_account_events_total{event=\"mail_confirmed\"} 2"));
  CHECK(metrics_show(port, "tanbo_account_events_total{event=\"mail_removed\"} 1"));
  // A guest has no address.
  auto cy = guest(port, "Cy");
  auto guest_put = api_call(port, "PUT", "/api/me/mail",
                            {{"mail", "cy@example.org"}, {"password", kPassword}}, cy.token);
  CHECK(guest_put.status == 409);
  CHECK(mail_refusal(guest_put) == "no_account");
}

TEST_CASE(
    "a forgotten password: the same answer for anyone, a link that works once, "
    "and every session ends",
    "[server][accounts][mail]") {
  Mailbox box;
  DataDir dir;
  ServerProcess server(dir, box.flags());
  const auto port = server.port();
  auto ana = ana_with_mail(port, box);
  ProtocolClient phone(port);
  REQUIRE(login(phone, "ana").at("type") == "welcome");

  for (const std::string who : {"nobody", "nobody@example.org", "not an address@", "ANA"}) {
    auto r = forgot(port, who, "", "fr");
    CHECK(r.status == 200);
    CHECK(json::parse(r.body) == json{{"asked", true}});
  }
  const std::string mail = box.wait(2);
  CHECK(mail_header(mail, "To") == "ana@example.org");
  CHECK(mail_header(mail, "Subject") == "Choisissez un nouveau mot de passe Tanbo");
  CHECK_THAT(mail, Catch::Contains("Bonjour ana,"));
  const std::string token = mail_link_token(mail, "reset");

  auto reset = [&](const std::string& password) {
    return api_call(port, "POST", "/api/password/reset",
                    {{"token", token}, {"password", password}});
  };
  // A weak password leaves the link good for a better one.
  auto weak = reset("sunshine2026");
  CHECK(weak.status == 400);
  CHECK(mail_refusal(weak) == "weak_password");
  auto r = reset("a brand new passphrase");
  REQUIRE(r.status == 200);
  json body = json::parse(r.body);
  CHECK(body.at("player").at("id") == ana.id);
  CHECK(body.at("username") == "ana");
  CHECK_FALSE(refused_token(port, body.at("token")));
  CHECK(ana.client->expect("error").at("code") == "bad_token");
  CHECK(phone.expect("error").at("code") == "bad_token");
  CHECK(refused_token(port, ana.token));
  ProtocolClient c(port);
  CHECK(login(c, "ana", "a brand new passphrase").at("type") == "welcome");
  ProtocolClient d(port);
  CHECK(login(d, "ana").at("code") == "bad_login");
  auto again = reset("yet another passphrase");
  CHECK(again.status == 400);
  CHECK(mail_refusal(again) == "expired_link");
  auto unknown =
      api_call(port, "POST", "/api/password/reset",
               {{"token", std::string(40, 'a')}, {"password", "yet another passphrase"}});
  CHECK(mail_refusal(unknown) == "expired_link");

  CHECK(metrics_show(port, "tanbo_account_events_total{event=\"password_reset\"} 1"));
  CHECK(metrics_show(port, "tanbo_mail_total{result=\"sent\"} 2"));
  CHECK(box.count() == 2);
  server.process().wait_for_line("\x01", 200ms);  // reads what the log holds
  CHECK_THAT(server.log(), !Catch::Contains(token));
  CHECK_THAT(server.log(), Catch::Contains("set a new password with a link sent by mail"));
}

TEST_CASE("new passwords by mail are limited per account and per address",
          "[server][accounts][mail]") {
  Mailbox box;
  DataDir dir;
  ServerProcess server(dir, box.flags({"--trusted-proxies", "127.0.0.1"}));
  const auto port = server.port();
  ana_with_mail(port, box);
  // Four addresses ask for Ana: three mails an hour go, the fourth is answered alike.
  for (int i = 1; i <= 4; ++i)
    CHECK(forgot(port, "ana", "203.0.113." + std::to_string(i)).status == 200);
  CHECK(metrics_show(port, "tanbo_account_events_total{event=\"reset_limited\"} 1"));
  box.wait(4);
  CHECK(metrics_show(port, "tanbo_mail_total{result=\"sent\"} 4"));
  CHECK(box.count() == 4);
  // One address asks five times an hour, whoever for; then it waits.
  for (int i = 0; i < 5; ++i) CHECK(forgot(port, "nobody", "198.51.100.7").status == 200);
  auto r = forgot(port, "nobody", "198.51.100.7");
  CHECK(r.status == 429);
  CHECK(mail_refusal(r) == "rate_limited");
  CHECK_FALSE(r.retry_after.empty());
  CHECK(forgot(port, "nobody", "198.51.100.8").status == 200);
}

TEST_CASE("a mail command that fails or hangs is logged and counted, and holds no request",
          "[server][accounts][mail]") {
  SECTION("the command refuses") {
    Mailbox box;
    DataDir dir;
    ServerProcess server(dir, box.flags());
    auto ana = ana_with_mail(server.port(), box);
    std::ofstream(box.dir.path / "fail") << "75\n";
    CHECK(forgot(server.port(), "ana").status == 200);
    CHECK(metrics_show(server.port(), "tanbo_mail_total{result=\"failed\"} 1"));
    CHECK(server.process().wait_for_line("refused by", 5s).has_value());
    CHECK_THAT(server.log(), Catch::Contains("not sent") && Catch::Contains("exit 75"));
  }
  SECTION("the command hangs past --mail-timeout") {
    DataDir dir;
    ServerProcess server(dir, {"--mail-command", "sleep 60", "--mail-from", "tanbo@example.org",
                               "--public-url", "http://localhost", "--mail-timeout", "1"});
    auto ana = ana_account(server.port());
    auto asked = api_call(server.port(), "PUT", "/api/me/mail",
                          {{"mail", "ana@example.org"}, {"password", kPassword}}, ana.token);
    CHECK(asked.status == 200);
    CHECK(metrics_show(server.port(), "tanbo_mail_total{result=\"timed_out\"} 1"));
    // The server stops at once all the same.
    CHECK(server.terminate() == 0);
  }
  SECTION("the command cannot be run") {
    DataDir dir;
    ChildProcess server(TANBO_SERVER_BINARY,
                        {"--port", "0", "--data-dir", dir.path.string(), "--mail-command",
                         "/nonexistent/sendmail -t", "--mail-from", "tanbo@example.org",
                         "--public-url", "http://localhost"});
    CHECK(server.wait(20s) == 1);
    CHECK_THAT(server.stderr_text(), Catch::Contains("--mail-command: /nonexistent/sendmail"));
  }
}
