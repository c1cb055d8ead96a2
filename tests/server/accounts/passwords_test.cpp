// The password rule, the Argon2id hashes and the recovery codes (server/accounts/passwords.hpp).
#include <unistd.h>
#include <catch2/catch.hpp>

#include <cctype>
#include <cstdio>
#include <fstream>

#include "server/accounts/passwords.hpp"

using namespace tanbo_server::server::accounts;

TEST_CASE("a new password: 10 to 128 characters, not common, not the username",
          "[accounts][passwords]") {
  CHECK_FALSE(password_problem("correct horse battery", "ana"));
  CHECK_FALSE(password_problem("\u00e9t\u00e9 \u00e0 Paris!", "ana"));  // 10 characters, 13 bytes
  CHECK_THAT(*password_problem("short", "ana"), Catch::Contains("at least 10"));
  CHECK_THAT(*password_problem("\u00e9t\u00e9 Paris", "ana"), Catch::Contains("not 9"));
  CHECK_THAT(*password_problem(std::string(129, 'x') + "y", "ana"), Catch::Contains("at most 128"));
  CHECK_THAT(*password_problem("password123", "ana"), Catch::Contains("most common"));
  CHECK_THAT(*password_problem("QWERTYUIOP", "ana"), Catch::Contains("most common"));
  CHECK_THAT(*password_problem("Ana Banana 12", "ana banana 12"), Catch::Contains("username"));
  CHECK_THAT(*password_problem("zzzzzzzzzzzz", "ana"), Catch::Contains("repeated"));
  CHECK(password_problem("\xff\xfe invalid bytes", "ana"));
}

TEST_CASE("a hash verifies its password only, in any normalization form, and names its limits",
          "[accounts][passwords]") {
  const std::string hash = hash_password("Zo\u00eb's long secret");
  CHECK(hash.starts_with("$argon2id$v=19$m=65536,t=2,p=1$"));
  CHECK(hash.find("secret") == std::string::npos);
  CHECK(verify_password(hash, "Zo\u00eb's long secret"));
  CHECK(verify_password(hash, "Zoe\u0308's long secret"));  // the same, decomposed
  CHECK_FALSE(verify_password(hash, "zo\u00eb's long secret"));
  CHECK_FALSE(verify_password(hash, ""));
  CHECK_FALSE(verify_password("not a hash", "Zo\u00eb's long secret"));
  CHECK(hash_password("Zo\u00eb's long secret") != hash);  // salted
  CHECK_FALSE(needs_rehash(hash));
  CHECK(needs_rehash("$argon2id$v=19$m=4096,t=1,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA"));
}

TEST_CASE("the operator's list of common passwords is refused, and so are its words dressed up",
          "[accounts][passwords]") {
  const std::string path = "/tmp/tanbo-common-passwords-" + std::to_string(::getpid());
  {
    std::ofstream out(path);
    out << "#!comment: a list in John the Ripper's form\nsunshine\r\nBasketball\ncorrect horse\n";
  }
  REQUIRE(load_common_passwords(path) == 3u);
  std::remove(path.c_str());
  CHECK_THAT(*password_problem("BASKETBALL", "ana"), Catch::Contains("most common"));
  CHECK_THAT(*password_problem("sunshine2026!", "ana"), Catch::Contains("a few characters added"));
  CHECK_THAT(*password_problem("123sunshine", "ana"), Catch::Contains("a few characters added"));
  CHECK_THAT(*password_problem("sunshinesunshine", "ana"), Catch::Contains("a few characters"));
  CHECK_FALSE(password_problem("sunshine on the paddies", "ana"));  // a phrase, not a dressed word
  CHECK_FALSE(password_problem("correct horse battery", "ana"));
  CHECK_FALSE(load_common_passwords(path));  // gone: the list read before stays
  CHECK(password_problem("basketball", "ana"));
}

TEST_CASE("a recovery code: 100 random bits in five groups, one hash however it is typed",
          "[accounts][passwords]") {
  const std::string code = new_recovery_code();
  CHECK(code.size() == 24);
  for (std::size_t i = 0; i < code.size(); ++i)
    CHECK((i % 5 == 4 ? code[i] == '-' : std::isalnum(static_cast<unsigned char>(code[i])) != 0));
  CHECK(new_recovery_code() != code);
  const std::string kept = recovery_hash("7QKM-2XHD-0B1A-ZZ9T-4PRS");
  CHECK(kept.size() == 64);
  CHECK(recovery_code_matches(kept, "7qkm 2xhd ob1a zz9t 4prs"));  // O for 0, spaces, lower case
  CHECK(recovery_code_matches(kept, "7QKM2XHD0BIAZZ9T4PRS"));      // I for 1, no dashes
  CHECK_FALSE(recovery_code_matches(kept, "7QKM-2XHD-0B1A-ZZ9T-4PRT"));
  CHECK_FALSE(recovery_code_matches("", ""));  // an account without a code has none to match
}
