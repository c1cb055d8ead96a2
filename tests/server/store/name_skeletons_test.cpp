// The names accounts protect, as stored (schema 8), on both databases: each account's keys kept
// and found for anyone but their holder, a holder's new name protected in place of the old, a
// guest's name never, an erased identity's keys gone, and a username renormalized.
#include <set>

#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

Account account_named(const std::string& id, const std::string& username) {
  return {id, username, "$argon2id$v=19$m=65536,t=2,p=1$x$y", 1000};
}

}  // namespace

TEST_CASE("an account's names are kept by their keys, found for anyone but their holder",
          "[store][accounts][names]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("ana", "Ana", "h-ana").ok());
  REQUIRE(store->create_identity("bo", "Bo", "h-bo").ok());
  REQUIRE(store->create_account(account_named("ana", "ana.a"), "ana.a").ok());
  REQUIRE(store->protect_names("ana", {"ana.a"}, {"ana", "Ana-cased"}).ok());
  CHECK(store->lookalike_holder({"ana"}, "bo") == "ana");
  CHECK(store->lookalike_holder({"x", "Ana-cased"}, "") == "ana");
  CHECK(store->lookalike_holder({"ana.a"}, "bo") == "ana");
  CHECK_FALSE(store->lookalike_holder({"ana"}, "ana"));  // its own
  CHECK_FALSE(store->lookalike_holder({"bo"}, ""));      // a guest's name protects nothing
  CHECK_FALSE(store->lookalike_holder({}, ""));
  std::set<std::string> kept;
  store->each_name_key([&](std::string id, std::string kind, std::string key) {
    kept.insert(id + "/" + kind + "/" + key);
  });
  CHECK(kept == std::set<std::string>{"ana/username/ana.a", "ana/name/ana", "ana/name/Ana-cased"});

  SECTION("a holder's new name takes the old one's place; a guest's rename keeps nothing") {
    REQUIRE(store->set_name("ana", "Zed", {"zed"}).ok());
    CHECK_FALSE(store->lookalike_holder({"ana"}, ""));
    CHECK(store->lookalike_holder({"zed"}, "") == "ana");
    CHECK(store->lookalike_holder({"ana.a"}, "") == "ana");  // the username stays
    REQUIRE(store->set_name("bo", "Bob", {"bob"}).ok());
    CHECK_FALSE(store->lookalike_holder({"bob"}, ""));
  }
  SECTION("an erased identity protects nothing") {
    REQUIRE(store->delete_identity("ana", 2000).ok());
    CHECK_FALSE(store->lookalike_holder({"ana", "ana.a"}, ""));
  }
  SECTION("protect_names replaces every key; none leaves nothing") {
    REQUIRE(store->protect_names("ana", {"ana.a"}, {"other"}).ok());
    CHECK_FALSE(store->lookalike_holder({"ana"}, ""));
    CHECK(store->lookalike_holder({"other"}, "") == "ana");
    REQUIRE(store->protect_names("ana", {}, {}).ok());
    CHECK_FALSE(store->lookalike_holder({"other", "ana.a"}, ""));
  }
  SECTION("a username renormalized, unless another account has its key") {
    REQUIRE(store->create_account(account_named("bo", "\uFF22o"), "\uFF42o").ok());  // Ｂo, ｂo
    REQUIRE(store->renormalize_username("bo", "Bo", "bo").ok());
    CHECK(store->account_by_key("bo")->username == "Bo");
    CHECK_FALSE(store->account_by_key("\uFF42o"));
    CHECK(store->renormalize_username("bo", "ana.a", "ana.a").code == Code::duplicate);
    CHECK(store->account_by_key("bo")->username == "Bo");
  }
}
