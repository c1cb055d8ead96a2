// Chat in a room (docs/protocol.md, "Chat"): who reads which channel, the chat's own limits,
// canned phrases, the history a join or a resume brings, mutes, the spectators' channel closed.
#include <catch2/catch.hpp>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

json say(ProtocolClient& c, const std::string& room, const std::string& channel, json what,
         int id) {
  json m = {{"type", "say"}, {"id", id}, {"room", room}, {"channel", channel}};
  m.update(what);
  c.send(m);
  return m;
}

}  // namespace

TEST_CASE("players read their channel, spectators theirs, players read the spectators' after",
          "[server][rooms][chat]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "mancala-simple", 2, 1, {{"first", 0}});
  auto& ana = t.at(0);
  auto& ben = t.at(1);
  auto& cid = *t.spectators[0];
  SECTION("a player's line reaches both players, numbered, and no spectator") {
    say(ana, t.room, "players", {{"text", "hello Ben"}}, 1);
    json line = ana.next_but_states();
    CHECK(line.at("type") == "said");
    CHECK(line.at("n") == 1);
    CHECK(line.at("channel") == "players");
    CHECK(line.at("text") == "hello Ben");
    CHECK(line.at("from").at("name") == "Player 0");
    CHECK(ana.next_but_states() == json{{"type", "ok"}, {"re", 1}, {"room", t.room}});
    CHECK(ben.next_but_states() == line);
    CHECK(cid.hears_nothing());
    say(ben, t.room, "players", {{"phrase", "good_luck"}}, 2);
    json second = ben.next_but_states();
    CHECK(second.at("n") == 2);
    CHECK(second.at("phrase") == "good_luck");
    CHECK_FALSE(second.contains("text"));
  }
  SECTION("a spectator's line reaches the spectators only while the game is played") {
    say(cid, t.room, "spectators", {{"text", "nice opening"}}, 1);
    CHECK(cid.next_but_states().at("type") == "said");
    CHECK(cid.next_but_states().at("type") == "ok");
    CHECK(ana.hears_nothing());
    CHECK(ben.hears_nothing());
    SECTION("once the game is over the players read it too") {
      ana.send({{"type", "resign"}, {"room", t.room}});
      ana.expect("state");
      ben.expect("state");
      cid.expect("state");
      say(cid, t.room, "spectators", {{"text", "well fought"}}, 2);
      CHECK(ana.next_but_states().at("text") == "well fought");
      CHECK(ben.next_but_states().at("n") == 2);
    }
  }
  SECTION("each writes in its own channel only") {
    say(cid, t.room, "players", {{"text", "play hole 3!"}}, 1);
    CHECK(cid.next_but_states().at("code") == "not_your_channel");
    say(ana, t.room, "spectators", {{"text", "hi"}}, 2);
    CHECK(ana.next_but_states().at("code") == "not_your_channel");
    CHECK(ben.hears_nothing());
  }
}

TEST_CASE("the chat's limits: the text rule, a bucket of its own, no line twice in a row",
          "[server][rooms][chat]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  auto& ana = t.at(0);
  auto refused = [&](json what, int id) {
    say(ana, t.room, "players", what, id);
    json m = ana.next_but_states();
    return m.at("type") == "error" ? m.at("code").get<std::string>()
                                   : m.at("type").get<std::string>();
  };
  CHECK(refused({{"text", ""}}, 1) == "bad_text");
  CHECK(refused({{"text", "tab\there"}}, 2) == "bad_text");
  CHECK(refused({{"text", "zero\u200Bwidth"}}, 3) == "bad_text");
  CHECK(refused({{"text", std::string(281, 'a')}}, 4) == "bad_text");
  CHECK(refused({{"text", "   "}}, 5) == "bad_text");
  CHECK(refused({{"phrase", "hi"}}, 6) == "bad_message");
  SECTION("a line of 280 characters after NFC, emoji included, is fine") {
    say(ana, t.room, "players", {{"text", std::string(278, 'e') + "\U0001F44B"}}, 7);
    CHECK(ana.next_but_states().at("type") == "said");
  }
  SECTION("the same line twice: chat_repeated") {
    say(ana, t.room, "players", {{"text", "gg"}}, 8);
    CHECK(ana.next_but_states().at("type") == "said");
    CHECK(ana.next_but_states().at("type") == "ok");
    CHECK(refused({{"text", "gg"}}, 9) == "chat_repeated");
  }
  SECTION("five lines at once, then chat_rate_limited with its request's id") {
    for (int i = 0; i < 5; ++i)
      say(ana, t.room, "players", {{"text", "line " + std::to_string(i)}}, 10 + i);
    say(ana, t.room, "players", {{"text", "one too many"}}, 20);
    int said = 0;
    json limited;
    for (int got = 0; got < 11; ++got) {
      json m = ana.next_but_states();
      said += m.at("type") == "said";
      if (m.at("type") == "error") limited = m;
    }
    CHECK(said == 5);
    CHECK(limited.at("code") == "chat_rate_limited");
    CHECK(limited.at("re") == 20);
  }
}

TEST_CASE("a join brings each readable channel's last lines, a resume the ones missed",
          "[server][rooms][chat]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 1);
  for (int i = 1; i <= 3; ++i) {
    say(t.at(0), t.room, "players", {{"text", "p" + std::to_string(i)}}, i);
    t.at(0).next_but_states(), t.at(0).next_but_states();
    t.at(1).next_but_states();
  }
  say(*t.spectators[0], t.room, "spectators", {{"text", "s1"}}, 9);
  t.spectators[0]->next_but_states(), t.spectators[0]->next_but_states();
  SECTION("a spectator joining gets the spectators' channel alone") {
    ProtocolClient late(fx.port());
    late.hello("Late");
    late.send({{"type", "join"}, {"id", 1}, {"room", t.room}, {"as", "spectator"}});
    json joined = late.expect("joined");
    REQUIRE(joined.contains("chat"));
    CHECK_FALSE(joined.at("chat").contains("players"));
    REQUIRE(joined.at("chat").at("spectators").size() == 1);
    CHECK(joined.at("chat").at("spectators")[0].at("text") == "s1");
  }
  SECTION("a player coming back resumes from the last line it saw") {
    t.at(1).send({{"type", "resume"},
                  {"id", 2},
                  {"room", t.room},
                  {"version", 1},
                  {"chat", {{"players", 1}}}});
    json resumed = t.at(1).expect("resumed");
    REQUIRE(resumed.at("chat").at("players").size() == 2);
    CHECK(resumed.at("chat").at("players")[0].at("n") == 2);
    CHECK(resumed.at("chat").at("players")[1].at("text") == "p3");
  }
}

TEST_CASE("a muted player's lines reach everyone but the one who muted it",
          "[server][rooms][chat]") {
  RoomsServer fx;
  Table t = Table::seat(fx.port(), "tsoro", 2, 0);
  const std::string ben_id = t.seen[1].at("seats")[1].at("player").at("id");
  t.at(0).send({{"type", "mute"}, {"id", 1}, {"player", ben_id}});
  CHECK(t.at(0).next_but_states().at("type") == "ok");
  say(t.at(1), t.room, "players", {{"text", "you will lose"}}, 2);
  CHECK(t.at(1).next_but_states().at("type") == "said");  // the sender reads its own line
  CHECK(t.at(0).hears_nothing());
  t.at(0).send({{"type", "unmute"}, {"id", 3}, {"player", ben_id}});
  CHECK(t.at(0).next_but_states().at("type") == "ok");
  say(t.at(1), t.room, "players", {{"text", "sorry"}}, 4);
  CHECK(t.at(0).next_but_states().at("text") == "sorry");
  SECTION("an unknown player cannot be muted") {
    t.at(0).send({{"type", "mute"}, {"id", 5}, {"player", "p-nobody"}});
    CHECK(t.at(0).next_but_states().at("code") == "no_such_player");
  }
}

TEST_CASE("the room's creator closes the spectators' channel, the lobby shows it",
          "[server][rooms][chat]") {
  RoomsServer fx;
  ProtocolClient ana(fx.port()), cid(fx.port());
  ana.hello("Ana");
  cid.hello("Cid");
  ana.send({{"type", "create"}, {"id", 1}, {"game", "tsoro"}, {"spectator_chat", false}});
  std::string room = ana.expect("created").at("room");
  ana.expect("state");
  cid.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "spectator"}});
  cid.expect("joined");
  cid.expect("state");
  say(cid, room, "spectators", {{"text", "hi all"}}, 2);
  CHECK(cid.next_but_states().at("code") == "chat_closed");
  cid.send({{"type", "rooms"}, {"id", 3}});
  CHECK(cid.next_but_states().at("rooms")[0].at("spectator_chat") == false);
  cid.send({{"type", "spectator_chat"}, {"id", 4}, {"room", room}, {"open", true}});
  CHECK(cid.next_but_states().at("code") == "not_seated");  // only the creator
  ana.send({{"type", "spectator_chat"}, {"id", 5}, {"room", room}, {"open", true}});
  CHECK(ana.next_but_states().at("type") == "ok");
  say(cid, room, "spectators", {{"text", "hi all"}}, 6);
  auto said = cid.next_but_states();
  INFO(said.dump());
  CHECK(said.at("type") == "said");  // the refused line was not counted as said
}
