// Bots and personal access tokens as stored (schema 14), on both databases: an account becomes a
// bot unless it has played a rated game, a person's consent to play bots, and an account's named
// tokens, which neither a session's listing nor a logout everywhere touches.
#include "server/store/bot_rows.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

TEST_CASE("an account becomes a bot unless it played a rated game", "[store][accounts][bots]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  for (const char* id : {"alice", "bob", "rob"})
    REQUIRE(store->create_identity(id, id, std::string("h-") + id).ok());
  REQUIRE(store->create_account({"alice", "Alice", "$argon2id$x", 10}, "alice").ok());
  REQUIRE(store->create_account({"rob", "Rob", "$argon2id$x", 10}, "rob").ok());

  CHECK(BotRows::make_bot(*store, "bob").code == Code::not_found);  // a guest
  REQUIRE(BotRows::make_bot(*store, "rob").ok());
  REQUIRE(BotRows::make_bot(*store, "rob").ok());  // a bot already
  CHECK(store->identity_by_id("rob")->bot);
  CHECK_FALSE(store->identity_by_id("alice")->bot);
  CHECK(store->player("rob")->at("bot") == true);

  RoomRow row = sample_room("r");  // alice and bob
  row.ranked = true;
  REQUIRE(store->create_room(row).ok());
  REQUIRE(store->finish_game("r", 1, {{"places", {1, 2}}, {"reason", "resign"}}, 50).ok());
  CHECK(BotRows::make_bot(*store, "alice").code == Code::invalid);
  CHECK_FALSE(store->identity_by_id("alice")->bot);
  CHECK_FALSE(store->player("alice")->contains("bot"));

  REQUIRE(BotRows::set_play_bots(*store, "alice", true).ok());
  CHECK(store->identity_by_id("alice")->play_bots);
  REQUIRE(BotRows::set_play_bots(*store, "alice", false).ok());
  CHECK_FALSE(store->identity_by_id("alice")->play_bots);
  CHECK(BotRows::set_play_bots(*store, "nobody", true).code == Code::not_found);
}

TEST_CASE("access tokens: named, listed apart from the sessions, kept by a logout everywhere",
          "[store][accounts][bots]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("rob", "Rob", "h-session").ok());
  REQUIRE(BotRows::add_access_token(*store, "rob", "h-laptop", "laptop", 100).ok());
  REQUIRE(BotRows::add_access_token(*store, "rob", "h-server", "server", 200).ok());
  CHECK(BotRows::add_access_token(*store, "nobody", "h-x", "x", 1).code == Code::not_found);

  auto tokens = BotRows::access_tokens(*store, "rob");
  REQUIRE(tokens.size() == 2);
  CHECK(tokens[0] == Token{"h-server", "rob", 200, 0, "", "server"});  // the newest first
  CHECK(tokens[1].name == "laptop");
  REQUIRE(store->tokens_of("rob").size() == 1);  // the session's only
  CHECK(store->tokens_of("rob")[0].hash == "h-session");
  CHECK(store->identity_by_token_hash("h-laptop")->id == "rob");

  REQUIRE(store->remove_tokens("rob", "").ok());  // every session
  CHECK_FALSE(store->token("h-session"));
  CHECK(BotRows::access_tokens(*store, "rob").size() == 2);
  REQUIRE(store->remove_token("h-laptop").ok());  // one revoked
  CHECK_FALSE(store->identity_by_token_hash("h-laptop"));
  CHECK(BotRows::access_tokens(*store, "rob").size() == 1);
  REQUIRE(store->delete_identity("rob", 300).ok());  // the account's deletion: all go
  CHECK(BotRows::access_tokens(*store, "rob").empty());
}
