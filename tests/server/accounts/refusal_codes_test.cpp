// A refusal of the Accounts says one code on both roads: the error a connection gets, and the
// code of the API's JSON. Only the API's own refusals have a code the protocol does not list.
#include <catch2/catch.hpp>

#include "server/accounts/accounts.hpp"

using tanbo_server::protocol::ErrorCode;
using tanbo_server::server::accounts::Refusal;

TEST_CASE("accounts: a refusal's API code is its protocol error's name", "[server][accounts]") {
  int api_only = 0;
  for (int i = int(Refusal::bad_login); i <= int(Refusal::mail_limited); ++i) {
    const auto r = Refusal(i);
    const auto code = tanbo_server::server::accounts::code_of(r);
    const auto error = tanbo_server::server::accounts::error_code(r);
    INFO("refusal " << i << ": " << code);
    if (auto named = tanbo_server::protocol::error_code_from(code)) {
      CHECK(*named == error);
      CHECK(error != ErrorCode::internal);
    } else {
      CHECK(error == ErrorCode::internal);
      ++api_only;
    }
  }
  // games_in_progress, bad_mail, mail_taken, expired_link, mail_unavailable
  CHECK(api_only == 5);
  CHECK(tanbo_server::server::accounts::error_code(Refusal::busy) == ErrorCode::rate_limited);
  CHECK(tanbo_server::server::accounts::code_of(Refusal::busy) == "rate_limited");
}
