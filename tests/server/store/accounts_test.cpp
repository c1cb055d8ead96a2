// Accounts as stored (schemas 6 and 7), on both databases: several tokens per identity with their
// last use and client, an account's username unique by its key, login attempts counted as they
// arrive and the waits they set, a new password, an identity erased with its games kept, and the
// export of everything kept of it.
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
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
  store->each_token([&](Token t) { tokens[t.hash] = t.identity; });
  CHECK(tokens ==
        std::map<std::string, std::string>{
            {"h-phone", "ana"}, {"h-laptop", "ana"}, {"h-tablet", "ana"}, {"h-bo", "bo"}});

  SECTION("a token keeps its client and its last use, and an identity's are listed by use") {
    REQUIRE(store->add_token("bo", "h-bo-2", 10, "Mozilla/5.0 (X11; Linux) Chrome/120").ok());
    CHECK(*store->token("h-bo-2") ==
          Token{"h-bo-2", "bo", 10, 10, "Mozilla/5.0 (X11; Linux) Chrome/120"});
    REQUIRE(store->touch_token("h-laptop", 50).ok());
    REQUIRE(store->touch_token("h-laptop", 40).ok());  // an older use changes nothing
    REQUIRE(store->touch_token("h-gone", 60).ok());    // nor does a token no longer kept
    CHECK(store->token("h-laptop")->last_used_at == 50);
    std::vector<std::string> order;
    for (const auto& t : store->tokens_of("ana")) order.push_back(t.hash);
    CHECK(order == std::vector<std::string>{"h-laptop", "h-tablet", "h-phone"});
    CHECK_FALSE(store->token("h-gone"));
  }

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

  SECTION("attempts are counted as they come; one too soon is neither admitted nor counted") {
    // The schedule the server uses: free for four, then 1, 2, 4... units after each.
    auto wait = [](int attempts) { return attempts < 5 ? 0 : std::int64_t(1) << (attempts - 5); };
    LoginTurn turn;
    for (int i = 1; i <= 4; ++i) {
      REQUIRE(store->count_login_attempt("ana", 100, wait, turn).ok());
      CHECK(turn == LoginTurn{true, i, 100});
    }
    REQUIRE(store->count_login_attempt("ana", 100, wait, turn).ok());
    CHECK(turn == LoginTurn{true, 5, 101});
    REQUIRE(store->count_login_attempt("ana", 100, wait, turn).ok());
    CHECK(turn == LoginTurn{false, 5, 101});  // too soon
    REQUIRE(store->count_login_attempt("ana", 101, wait, turn).ok());
    CHECK(turn == LoginTurn{true, 6, 103});
    CHECK(store->account_of("ana")->attempts == 6);
    CHECK(store->account_of("ana")->next_attempt_at == 103);

    SECTION("two stores on one database (two nodes) share the count") {
      auto other = db.open();
      REQUIRE(other->count_login_attempt("ana", 102, wait, turn).ok());
      CHECK_FALSE(turn.admitted);
      REQUIRE(other->count_login_attempt("ana", 103, wait, turn).ok());
      CHECK(turn == LoginTurn{true, 7, 107});
      REQUIRE(store->count_login_attempt("ana", 104, wait, turn).ok());
      CHECK(turn == LoginTurn{false, 7, 107});
    }
    SECTION("a success starts the count again") {
      REQUIRE(store->note_login_success("ana").ok());
      CHECK(store->account_of("ana")->attempts == 0);
      CHECK(store->account_of("ana")->next_attempt_at == 0);
      REQUIRE(store->count_login_attempt("ana", 101, wait, turn).ok());
      CHECK(turn == LoginTurn{true, 1, 101});
    }
    CHECK(store->count_login_attempt("bo", 1, wait, turn).code == Code::not_found);
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
