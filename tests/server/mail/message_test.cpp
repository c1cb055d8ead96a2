// Mail addresses as accounts keep them, and the mails as the command reads them
// (server/mail/address.hpp, message.hpp).
#include <catch2/catch.hpp>

#include "server/mail/address.hpp"
#include "server/mail/mailer.hpp"
#include "server/mail/message.hpp"

using namespace tanbo_server::server::mail;

TEST_CASE("an address is trimmed and lower-cased, and only a plain one is taken",
          "[server][mail]") {
  CHECK(normalize_address("  Ana.Plays+tanbo@Example.ORG ") == "ana.plays+tanbo@example.org");
  CHECK(normalize_address("o'brien@mail.example.co.uk") == "o'brien@mail.example.co.uk");
  for (const char* bad :
       {"", "ana", "@example.org", "ana@", "ana@example", "ana@@example.org", "ana@-example.org",
        "ana@example..org", "ana@example.org.", ".ana@x.org", "a..b@x.org", "ana smith@example.org",
        "\"ana\"@example.org", "ana@example.org\r\nBcc: eve@example.org",
        "ana@example.org, eve@x.org", "ana@exämple.org", "anä@example.org", "<ana@example.org>"})
    CHECK_FALSE(normalize_address(bad));
  CHECK_FALSE(normalize_address(std::string(65, 'a') + "@example.org"));
  CHECK(public_url("https://play.example.org/") == "https://play.example.org");
  CHECK_FALSE(public_url("ftp://play.example.org"));
  CHECK_FALSE(public_url("https://"));
  CHECK(command_words("  /usr/sbin/sendmail   -t -i ") ==
        std::vector<std::string>{"/usr/sbin/sendmail", "-t", "-i"});
  CHECK_FALSE(command_words("   "));
}

TEST_CASE("a mail in each language, its headers ready for sendmail -t", "[server][mail]") {
  auto en = written(Kind::reset, "de", "ana@example.org", "ana", "https://x/#/reset/abc", 30);
  CHECK(en.subject == "Choose a new Tanbo password");
  CHECK_THAT(en.body, Catch::Contains("Hello ana,") && Catch::Contains("https://x/#/reset/abc\n") &&
                          Catch::Contains("for 30 minutes"));
  auto fr = written(Kind::confirm, "fr", "ana@example.org", "ana", "L", 24 * 60);
  CHECK_THAT(fr.body, Catch::Contains("valable 24\u00a0heures"));
  auto ja = written(Kind::confirm, "ja", "ana@example.org", "アナ", "L", 24 * 60);
  CHECK_THAT(ja.body, Catch::StartsWith("アナ さん") && Catch::Contains("24時間"));

  const std::string text = compose(ja, "Tanbo <tanbo@example.org>", 1765000000000);
  CHECK_THAT(text, Catch::StartsWith("From: Tanbo <tanbo@example.org>\nTo: ana@example.org\n"));
  CHECK_THAT(text, Catch::Contains("\nSubject: =?UTF-8?B?"));
  CHECK_THAT(text, Catch::Contains("\nDate: Sat, 06 Dec 2025 05:46:40 +0000\n"));
  CHECK_THAT(text, Catch::Contains("\nMessage-ID: <") && Catch::Contains("@example.org>\n"));
  CHECK_THAT(text, Catch::Contains("\nContent-Type: text/plain; charset=UTF-8\n"));
  CHECK_THAT(text, Catch::EndsWith("\n\n" + ja.body));
  // An ASCII subject goes as it is.
  CHECK_THAT(compose(en, "tanbo@example.org", 0),
             Catch::Contains("\nSubject: Choose a new Tanbo password\n"));
  CHECK(sender_ok("tanbo@example.org"));
  CHECK(sender_ok("Tanbo <tanbo@example.org>"));
  CHECK_FALSE(sender_ok("tanbo"));
  CHECK_FALSE(sender_ok("tanbo@example.org\nBcc: x@y.org"));
}
