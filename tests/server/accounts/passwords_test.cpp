// The password rule and the Argon2id hashes (server/accounts/passwords.hpp).
#include <catch2/catch.hpp>

#include "server/accounts/passwords.hpp"

using namespace tanbo::server::accounts;

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
