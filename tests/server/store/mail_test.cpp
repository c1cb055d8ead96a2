// Mail as stored (schema 12), on both databases: an account's confirmed address, unique among
// accounts and found by; tokens sent by mail, kept by their hash, good once and until they
// expire, counted per account and purpose within the hour; erased with the identity.
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

constexpr std::int64_t kHour = 3600 * 1000;

MailToken token(std::string hash, std::string identity, std::string purpose, std::int64_t at) {
  return {std::move(hash), std::move(identity), std::move(purpose), "ana@example.org", at,
          at + kHour / 2};
}

}  // namespace

TEST_CASE("an account's mail address and the tokens sent to it", "[store][accounts][mail]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("ana", "Ana", "h1").ok());
  REQUIRE(store->create_identity("bo", "Bo", "h2").ok());
  REQUIRE(store->create_account({"ana", "Ana", "x", 1000}, "ana").ok());
  REQUIRE(store->create_account({"bo", "Bo", "x", 1000}, "bo").ok());

  CHECK(store->account_of("ana")->mail.empty());
  CHECK_FALSE(store->account_by_mail("ana@example.org"));
  REQUIRE(store->set_mail("ana", "ana@example.org").ok());
  CHECK(store->account_of("ana")->mail == "ana@example.org");
  CHECK(store->account_by_mail("ana@example.org")->identity == "ana");
  CHECK(store->set_mail("bo", "ana@example.org").code == Code::duplicate);
  CHECK(store->set_mail("ghost", "g@example.org").code == Code::not_found);
  REQUIRE(store->set_mail("bo", "").ok());  // none, as for every account without one
  REQUIRE(store->set_mail("bo", "bo@example.org").ok());

  const std::int64_t t0 = 10 * kHour;
  for (int i = 0; i < 3; ++i)
    REQUIRE(store->add_mail_token(token("r" + std::to_string(i), "ana", "reset", t0 + i), 3).ok());
  CHECK(store->add_mail_token(token("r3", "ana", "reset", t0 + 3), 3).code == Code::invalid);
  CHECK(store->add_mail_token(token("c0", "ana", "confirm", t0 + 3), 3).ok());  // another purpose
  CHECK(store->add_mail_token(token("r4", "ana", "reset", t0 + kHour + 1), 3).ok());  // an hour on
  CHECK(store->add_mail_token(token("x", "ghost", "reset", t0), 3).code == Code::not_found);

  CHECK(store->mail_token("r0", "reset", t0 + 10)->identity == "ana");
  CHECK_FALSE(store->mail_token("r0", "confirm", t0 + 10));
  std::optional<MailToken> found;
  REQUIRE(store->take_mail_token("r0", "reset", t0 + 10, found).ok());
  REQUIRE(found);
  CHECK(*found == token("r0", "ana", "reset", t0));
  REQUIRE(store->take_mail_token("r0", "reset", t0 + 11, found).ok());
  CHECK_FALSE(found);  // once
  REQUIRE(store->take_mail_token("r1", "reset", t0 + kHour, found).ok());
  CHECK_FALSE(found);  // expired
  CHECK(store->pending_mail("ana", t0 + 10) == "ana@example.org");
  REQUIRE(store->end_mail_tokens("ana", "confirm").ok());
  CHECK_FALSE(store->pending_mail("ana", t0 + 10));
  CHECK(store->mail_token("r2", "reset", t0 + 10));
  REQUIRE(store->end_mail_tokens("ana", "").ok());
  CHECK_FALSE(store->mail_token("r2", "reset", t0 + 10));

  CHECK(store->export_identity("ana").at("account").at("mail") == "ana@example.org");
  REQUIRE(store->delete_identity("ana", t0).ok());
  CHECK_FALSE(store->account_by_mail("ana@example.org"));
  REQUIRE(store->set_mail("bo", "ana@example.org").ok());  // the address is free again
}
