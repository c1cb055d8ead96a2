// Accounts as stored (schema 6), on both databases: several tokens per identity, an account's
// username unique by its key, failed logins and their lock, a new password, an identity erased
// with its games kept, and the export of everything kept of it.
#include "tests/server/store/support.hpp"

using namespace tanbo::server::store;
using namespace tanbo::server::store::testing;
using Code = WriteResult::Code;

namespace {

Account account_of_ana() { return {"ana", "Ana", "$argon2id$v=19$m=65536,t=2,p=1$x$y", 1000}; }

}  // namespace

TEST_CASE("an identity holds a token per device, and revoked ones bring nothing back",
          "[store][accounts]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("ana", "Ana", "h-phone").ok());
  REQUIRE(store->create_identity("bo", "Bo", "h-bo").ok());
  REQUIRE(store->add_token("ana", "h-laptop", 5).ok());
  REQUIRE(store->add_token("ana", "h-tablet", 6).ok());
  CHECK(store->add_token("nobody", "h-x", 7).code == Code::not_found);
  CHECK(store->add_token("bo", "h-laptop", 8).code == Code::duplicate);
  for (const char* h : {"h-phone", "h-laptop", "h-tablet"})
    CHECK(store->identity_by_token_hash(h)->id == "ana");
  std::map<std::string, std::string> tokens;
  store->each_token([&](std::string hash, std::string id) { tokens[hash] = id; });
  CHECK(tokens ==
        std::map<std::string, std::string>{
            {"h-phone", "ana"}, {"h-laptop", "ana"}, {"h-tablet", "ana"}, {"h-bo", "bo"}});

  SECTION("one token revoked") {
    REQUIRE(store->remove_token("h-laptop").ok());
    CHECK_FALSE(store->identity_by_token_hash("h-laptop"));
    CHECK(store->identity_by_token_hash("h-phone"));
    CHECK(store->remove_token("h-laptop").code == Code::not_found);
  }
  SECTION("every token but one, then every one") {
    REQUIRE(store->remove_tokens("ana", "h-tablet").ok());
    CHECK_FALSE(store->identity_by_token_hash("h-phone"));
    CHECK_FALSE(store->identity_by_token_hash("h-laptop"));
    CHECK(store->identity_by_token_hash("h-tablet"));
    REQUIRE(store->remove_tokens("ana", "").ok());
    CHECK_FALSE(store->identity_by_token_hash("h-tablet"));
    CHECK(store->identity_by_token_hash("h-bo"));  // another identity's stay
    CHECK(store->identity_by_id("ana"));           // the identity stays
  }
}

TEST_CASE("an account: one per identity, its username unique by key, failures lock it",
          "[store][accounts]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("ana", "Ana", "h1").ok());
  REQUIRE(store->create_identity("bo", "Bo", "h2").ok());
  CHECK(store->create_account({"ghost", "Ghost", "x", 1}, "ghost").code == Code::not_found);
  REQUIRE(store->create_account(account_of_ana(), "ana").ok());
  CHECK(store->create_account({"bo", "ANA", "x", 2}, "ana").code == Code::duplicate);
  CHECK(store->create_account({"ana", "Other", "x", 2}, "other").code == Code::duplicate);
  CHECK_FALSE(store->account_of("bo"));
  REQUIRE(store->account_by_key("ana"));
  CHECK(*store->account_by_key("ana") == account_of_ana());
  CHECK(store->identity_by_id("ana")->username == "Ana");
  CHECK(store->identity_by_token_hash("h1")->username == "Ana");
  CHECK(store->identity_by_id("bo")->username.empty());

  SECTION("the fifth failure in a row locks it; a success clears the count") {
    for (int i = 0; i < 3; ++i) REQUIRE(store->note_login_failure("ana", 100, 5, 900).ok());
    CHECK(store->account_of("ana")->failures == 3);
    REQUIRE(store->note_login_success("ana").ok());
    CHECK(store->account_of("ana")->failures == 0);
    for (int i = 0; i < 4; ++i) REQUIRE(store->note_login_failure("ana", 100, 5, 900).ok());
    CHECK(store->account_of("ana")->locked_until == 0);
    REQUIRE(store->note_login_failure("ana", 200, 5, 900).ok());
    CHECK(store->account_of("ana")->locked_until == 1100);
    CHECK(store->account_of("ana")->failures == 0);  // counted afresh once the lock ends
    CHECK(store->note_login_failure("bo", 1, 5, 900).code == Code::not_found);
  }
  SECTION("a new password replaces the old, and survives a reopening") {
    REQUIRE(store->set_password("ana", "$argon2id$new").ok());
    store.reset();
    store = db.open();
    CHECK(store->account_of("ana")->password_hash == "$argon2id$new");
    CHECK(store->set_password("bo", "x").code == Code::not_found);
  }
}

TEST_CASE("an erased identity: its games stay under the name deleted player, the rest goes",
          "[store][accounts]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("alice", "Alice", "h1").ok());
  REQUIRE(store->create_identity("bob", "Bob", "h2").ok());
  REQUIRE(store->create_account({"alice", "Alice", "$argon2id$x", 10}, "alice").ok());
  RoomRow row = sample_room("r");
  row.ranked = true;
  REQUIRE(store->create_room(row).ok());
  REQUIRE(store->finish_game("r", 1, {{"places", {1, 2}}, {"reason", "empty"}}, 50).ok());
  REQUIRE(store->append_chat("r", 1, {"players", 1, "alice", "Alice", "good luck", "", 20}).ok());
  REQUIRE(store->append_chat("r", 1, {"players", 2, "bob", "Bob", "thanks", "", 21}).ok());
  REQUIRE(store->set_mute("alice", "bob", true).ok());
  REQUIRE(store->set_mute("bob", "alice", true).ok());
  REQUIRE(store->add_report("alice", "bob", "r", "rude", 30).ok());

  Json before = store->export_identity("alice");
  CHECK(before["identity"] == Json{{"id", "alice"}, {"name", "Alice"}});
  CHECK(before["account"] == Json{{"username", "Alice"}, {"created_at", 10}});
  CHECK(before["ratings"].contains("mancala-simple"));
  REQUIRE(before["games"].size() == 1);
  CHECK(before["games"][0]["id"] == "r-1");
  CHECK(before["games"][0]["seat"] == 0);
  CHECK(before["games"][0]["result"]["reason"] == "empty");
  REQUIRE(before["chat"].size() == 1);  // only the lines she wrote
  CHECK(before["chat"][0]["text"] == "good luck");
  CHECK(before["mutes"] == Json{"bob"});
  CHECK(before["reports"].size() == 1);
  CHECK(before.dump().find("argon2id") == std::string::npos);  // never the hash

  REQUIRE(store->delete_identity("alice", 99).ok());
  CHECK(store->delete_identity("alice", 100).code == Code::not_found);
  CHECK_FALSE(store->identity_by_token_hash("h1"));
  CHECK_FALSE(store->account_by_key("alice"));
  CHECK(store->identity_by_id("alice")->name == "deleted player");
  auto game = store->list_games(std::nullopt, std::nullopt, 10, std::nullopt)["games"];
  REQUIRE(game.size() == 1);  // the game stays, and names her so
  CHECK(game[0]["players_info"][0]["name"] == "deleted player");
  CHECK(game[0]["players_info"][1]["name"] == "Bob");
  auto chat = store->chat_tail("r", "players", 10).first;
  REQUIRE(chat.size() == 1);
  CHECK(chat[0].identity == "bob");
  CHECK(store->standing("bob").mutes.empty());  // her muting by others goes too
  CHECK(store->reports(10).empty());
  Json after = store->export_identity("alice");
  CHECK(after["account"].is_null());
  CHECK(after["chat"].empty());
  CHECK(after["ratings"].empty());
  SECTION("the name is free again") {
    REQUIRE(store->create_identity("carol", "Carol", "h3").ok());
    CHECK(store->create_account({"carol", "Alice", "x", 1}, "alice").ok());
  }
}
