// Chat and moderation as stored (schema 4), on both databases: lines numbered per channel, a
// removed line keeping its number, a game's lines, mutes, reports, shadow mutes and bans.
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;
using namespace tanbo_server::server::store::testing;
using Code = WriteResult::Code;

namespace {

ChatLine line(std::string channel, std::int64_t n, std::string text, std::string phrase = "") {
  return {std::move(channel), n, "alice", "Alice", std::move(text), std::move(phrase), 1000 + n};
}

}  // namespace

TEST_CASE("chat lines come back per channel, the newest last, removed ones left out",
          "[store][chat]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->append_chat("r1", 1, line("players", 1, "hello")).ok());
  REQUIRE(store->append_chat("r1", 1, line("players", 2, "", "good_luck")).ok());
  REQUIRE(store->append_chat("r1", 1, line("spectators", 1, "nice")).ok());
  REQUIRE(store->append_chat("r1", 2, line("players", 3, "again?")).ok());
  REQUIRE(store->append_chat("r2", 1, line("players", 1, "elsewhere")).ok());
  SECTION("a line's number is its channel's: the same number twice is refused") {
    CHECK_FALSE(store->append_chat("r1", 2, line("players", 3, "twice")).ok());
  }
  SECTION("the tail and the next number, across games") {
    auto [tail, next] = store->chat_tail("r1", "players", 50);
    REQUIRE(tail.size() == 3);
    CHECK(tail[0] == line("players", 1, "hello"));
    CHECK(tail[1].phrase == "good_luck");
    CHECK(tail[1].text.empty());
    CHECK(tail[2].text == "again?");
    CHECK(next == 4);
    CHECK(store->chat_tail("r1", "players", 2).first.front().n == 2);  // the last two
    CHECK(store->chat_tail("r3", "players", 50) ==
          std::pair<std::vector<ChatLine>, std::int64_t>{{}, 1});
  }
  SECTION("a game's lines of one channel") {
    auto game1 = store->game_chat("r1", 1, "players");
    REQUIRE(game1.size() == 2);
    CHECK(game1[1].n == 2);
    CHECK(store->game_chat("r1", 2, "players").size() == 1);
    CHECK(store->game_chat("r1", 1, "spectators").size() == 1);
  }
  SECTION("a removed line is gone from both and keeps its number taken") {
    REQUIRE(store->remove_chat("r1", "players", 3, 5000).ok());
    auto [tail, next] = store->chat_tail("r1", "players", 50);
    CHECK(tail.size() == 2);
    CHECK(next == 4);  // numbers never repeat
    CHECK(store->game_chat("r1", 2, "players").empty());
    CHECK(store->remove_chat("r1", "players", 9, 5000).code == Code::not_found);
  }
  SECTION("it survives a close and a reopen") {
    store.reset();
    store = db.open();
    CHECK(store->chat_tail("r1", "spectators", 50).first.at(0).text == "nice");
  }
}

TEST_CASE("mutes, reports, shadow mutes and bans are kept with the identities", "[store][chat]") {
  const auto backend = GENERATE(Backend::sqlite, Backend::postgres);
  if (unavailable(backend)) return;
  INFO(backend);
  TestDb db(backend);
  auto store = db.open();
  REQUIRE(store->create_identity("alice", "Alice", "h1").ok());
  REQUIRE(store->create_identity("bob", "Bob", "h2").ok());
  REQUIRE(store->create_identity("cid", "Cid", "h3").ok());
  CHECK(store->standing("alice") == Standing{});
  REQUIRE(store->set_mute("alice", "bob", true).ok());
  REQUIRE(store->set_mute("alice", "cid", true).ok());
  REQUIRE(store->set_mute("alice", "cid", true).ok());  // twice is once
  REQUIRE(store->set_mute("alice", "bob", false).ok());
  REQUIRE(store->set_shadow_mute("bob", 9'000'000).ok());
  REQUIRE(store->set_ban("cid", 1234).ok());
  CHECK(store->set_ban("nobody", 1234).code == Code::not_found);
  CHECK(store->set_shadow_mute("nobody", 1).code == Code::not_found);
  REQUIRE(store->add_report("alice", "bob", "r1", "insults", 100).ok());
  REQUIRE(store->add_report("cid", "alice", "", "spam", 200).ok());
  store.reset();
  store = db.open();
  CHECK(store->standing("alice").mutes == std::vector<std::string>{"cid"});
  CHECK(store->standing("bob").shadow_until == 9'000'000);
  CHECK(store->standing("cid").banned);
  auto all = store->standings();
  CHECK(all.size() == 3);
  CHECK(all.at("cid").banned);
  CHECK_FALSE(all.at("alice").banned);
  auto reports = store->reports(10);
  REQUIRE(reports.size() == 2);
  CHECK(reports[0].at("reporter") == "cid");  // the newest first
  CHECK(reports[0].at("room").is_null());
  CHECK(reports[1].at("reason") == "insults");
  CHECK(reports[1].at("room") == "r1");
  CHECK(store->reports(1).size() == 1);
  SECTION("lifted, they are gone") {
    REQUIRE(store->set_shadow_mute("bob", 0).ok());
    REQUIRE(store->set_ban("cid", 0).ok());
    CHECK(store->standing("bob") == Standing{});
    CHECK_FALSE(store->standing("cid").banned);
    CHECK(store->standings().size() == 1);  // alice, for her mute
  }
}
