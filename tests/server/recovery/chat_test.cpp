// Chat across a kill -9: every line a reader got is there after the restart, numbered on from
// where it was; a resume brings the lines missed; a mute holds; the finished game's record
// carries the players' channel and not the spectators'.
#include <catch2/catch.hpp>

#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

// The next `said` (or error) `c` reads; states and the rest skipped.
json next_said(ProtocolClient& c) {
  for (;;) {
    json m = c.next();
    if (m.at("type") == "said" || m.at("type") == "error") return m;
  }
}

json say(ProtocolClient& c, const std::string& room, const std::string& channel, json what) {
  json m = {{"type", "say"}, {"room", room}, {"channel", channel}};
  m.update(what);
  c.send(m);
  return next_said(c);
}

std::vector<std::string> texts(const json& lines) {
  std::vector<std::string> out;
  for (const auto& l : lines)
    out.push_back(l.contains("text") ? l.at("text").get<std::string>()
                                     : "phrase:" + l.at("phrase").get<std::string>());
  return out;
}

// The next message of `type`, states skipped.
json until(ProtocolClient& c, std::string_view type) {
  for (;;) {
    json m = c.next();
    if (m.at("type") == type) return m;
    if (m.at("type") != "state")
      throw std::runtime_error("expected " + std::string(type) + ", got " + m.dump());
  }
}

// Back in the room after the restart (docs/protocol.md, "Reconnecting"): join, then resume.
json resume(ProtocolClient& c, const std::string& room, json chat = json::object(),
            const std::string& as = "player", json* joined = nullptr) {
  c.send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", as}});
  json j = c.expect("joined");
  if (joined) *joined = j;
  json m = {{"type", "resume"}, {"id", "r"}, {"room", room}, {"version", 1}};
  m.update(chat);
  c.send(m);
  return until(c, "resumed");
}

}  // namespace

TEST_CASE("chat survives a kill -9 with its numbers, resume brings what was missed, mutes hold",
          "[persist][recovery][chat]") {
  DataDir dir;
  Guest ana, bo, cid;
  std::string room;
  {
    ServerProcess server(dir);
    ana = guest(server.port(), "Ana");
    bo = guest(server.port(), "Bo");
    cid = guest(server.port(), "Cid");
    ana.client->send({{"type", "create"}, {"id", 1}, {"game", "mancala-simple"}});
    room = ana.client->expect("created").at("room");
    bo.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
    cid.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "spectator"}});
    state_at(*bo.client, 1), state_at(*cid.client, 1), state_at(*ana.client, 1);
    REQUIRE(say(*ana.client, room, "players", {{"text", "hello"}}).at("n") == 1);
    REQUIRE(next_said(*bo.client).at("n") == 1);
    REQUIRE(say(*bo.client, room, "players", {{"phrase", "good_luck"}}).at("n") == 2);
    REQUIRE(say(*cid.client, room, "spectators", {{"text", "go Ana"}}).at("n") == 1);
    bo.client->send({{"type", "mute"}, {"id", "m"}, {"player", ana.id}});
    REQUIRE(bo.client->expect("ok").at("re") == "m");
    server.kill();
  }
  ServerProcess server(dir);
  ana = guest(server.port(), "", ana.token);
  bo = guest(server.port(), "", bo.token);
  cid = guest(server.port(), "", cid.token);

  SECTION("a resume from the last line seen brings the rest; without one, the recent lines") {
    auto a = resume(*ana.client, room, {{"chat", {{"players", 1}}}});
    CHECK(texts(a.at("chat").at("players")) == std::vector<std::string>{"phrase:good_luck"});
    CHECK_FALSE(a.at("chat").contains("spectators"));  // not while the game is played
    auto c = resume(*cid.client, room, json::object(), "spectator");
    CHECK(texts(c.at("chat").at("spectators")) == std::vector<std::string>{"go Ana"});
    CHECK_FALSE(c.at("chat").contains("players"));
  }
  SECTION("the mute was kept with Bo: Ana's lines, old and new, do not reach him") {
    json joined;
    auto b = resume(*bo.client, room, json::object(), "player", &joined);
    CHECK(texts(joined.at("chat").at("players")) == std::vector<std::string>{"phrase:good_luck"});
    CHECK(texts(b.at("chat").at("players")) == std::vector<std::string>{"phrase:good_luck"});
    resume(*ana.client, room);
    CHECK(say(*ana.client, room, "players", {{"text", "still there?"}}).at("n") == 3);
    CHECK(say(*bo.client, room, "players", {{"text", "yes"}}).at("n") == 4);  // not Ana's 3
    CHECK(next_said(*ana.client).at("text") == "yes");
  }
  SECTION("the finished game's record carries the players' channel only") {
    resume(*ana.client, room);
    resume(*bo.client, room);
    say(*bo.client, room, "players", {{"text", "gg"}});
    next_said(*ana.client);
    ana.client->send({{"type", "resign"}, {"id", "x"}, {"room", room}});
    until(*ana.client, "ok");
    auto record = get_json(server.port(), "/api/games/" + room + "-1");
    REQUIRE(record.at("status") == "finished");
    CHECK(texts(record.at("chat")) == std::vector<std::string>{"hello", "phrase:good_luck", "gg"});
    CHECK(record.at("chat")[0].at("from").at("name") == "Ana");
    CHECK(record.dump().find("go Ana") == std::string::npos);
  }
}
