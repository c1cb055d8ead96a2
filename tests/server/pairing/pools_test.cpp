// Play now through the protocol, on one server: pools, waves, the computer after a wait, and
// direct challenges (docs/protocol.md, "Play now").
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

Config pools_config() {
  Config c = rooms_config();
  c.pool_wave_ms = 200;
  return c;
}

struct PoolSeeker {
  std::unique_ptr<ProtocolClient> client;
  std::string id, seek;
};

PoolSeeker seeker(std::uint16_t port, const std::string& name) {
  PoolSeeker s;
  s.client = std::make_unique<ProtocolClient>(port);
  s.id = s.client->hello(name).at("player").at("id");
  return s;
}

json seek(PoolSeeker& s, json terms) {
  terms["type"] = "seek";
  terms["id"] = "k";
  s.client->send(terms);
  json m = s.client->next();
  if (m.at("type") == "seeking") s.seek = m.at("seek");
  return m;
}

json past_states(ProtocolClient& c, std::string_view type);

// The pool counts a fresh `rooms` shows.
json pools(ProtocolClient& c) {
  c.send({{"type", "rooms"}, {"id", "p"}});
  return past_states(c, "rooms").at("pools");
}

struct Seated {
  std::string room;
  int seat;
  json state;
};

// paired, joined, state: the room and the seat.
Seated paired(PoolSeeker& s) {
  json p = s.client->expect("paired");
  CHECK(p.at("seek") == s.seek);
  json j = s.client->expect("joined");
  CHECK(j.at("room") == p.at("room"));
  CHECK(j.at("seat") == p.at("seat"));
  json st = s.client->expect("state");
  CHECK(st.at("status") == "playing");
  return {p.at("room"), p.at("seat"), st};
}

// The next message of `type`, past the states that come meanwhile.
json past_states(ProtocolClient& c, std::string_view type) {
  for (;;) {
    json m = c.next();
    if (m.at("type") != "state") {
      REQUIRE(m.at("type") == type);
      return m;
    }
  }
}

}  // namespace

TEST_CASE("100 seekers of one pool are paired within two waves into 50 rooms that play",
          "[server][pairing]") {
  RoomsServer fx(pools_config());
  std::vector<PoolSeeker> s;
  for (int i = 0; i < 100; ++i) {
    s.push_back(seeker(fx.port(), "PoolSeeker " + std::to_string(i)));
    REQUIRE(seek(s.back(), {{"game", "mancala-simple"}}).at("type") == "seeking");
  }
  std::map<std::string, std::set<int>> rooms;
  std::vector<Seated> seated;
  for (auto& x : s) {
    seated.push_back(paired(x));
    CHECK(rooms[seated.back().room].insert(seated.back().seat).second);
  }
  CHECK(rooms.size() == 50);
  for (const auto& [room, seats] : rooms) CHECK(seats == std::set<int>{0, 1});
  // Each room plays: its first mover gets its legal actions, and its move is taken.
  int moved = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto& st = seated[i].state;
    if (st.at("pending").at("seat") != seated[i].seat) continue;
    s[i].client->send({{"type", "act"},
                       {"id", int(i)},
                       {"room", seated[i].room},
                       {"version", 1},
                       {"action", st.at("legal").at(0)}});
    CHECK(past_states(*s[i].client, "ok").at("version") == 2);
    ++moved;
  }
  CHECK(moved == 50);
  CHECK(pools(*s.front().client).empty());
}

TEST_CASE(
    "pools are keyed by time control: a clock pool pairs into a clock room, apart from the "
    "others",
    "[server][pairing][timer]") {
  RoomsServer fx(pools_config());
  const json clock = {{"type", "clock"}, {"base_s", 180}, {"increment_s", 2}};
  const json days = {{"type", "correspondence"}, {"days", 3}};
  PoolSeeker a = seeker(fx.port(), "A"), b = seeker(fx.port(), "B"), c = seeker(fx.port(), "C");
  json ka = seek(a, {{"game", "tsoro"}, {"timer", clock}});
  REQUIRE(ka.at("type") == "seeking");
  CHECK(ka.at("pool").at("timer") == clock);
  REQUIRE(seek(c, {{"game", "tsoro"}, {"timer", days}}).at("type") == "seeking");
  json listed = pools(*a.client);
  REQUIRE(listed.size() == 2);  // one pool per time control, one seeker each
  for (const auto& p : listed) CHECK(p.at("waiting") == 1);
  REQUIRE(seek(b, {{"game", "tsoro"}, {"timer", clock}}).at("type") == "seeking");
  Seated sa = paired(a), sb = paired(b);
  CHECK(sa.room == sb.room);
  CHECK(sa.state.at("clock").at("control") == "clock");
  for (const auto& ms : sa.state.at("clock").at("remaining")) {
    CHECK(ms <= 180'000);
    CHECK(ms > 170'000);
  }
  CHECK(c.client->hears_nothing());  // the correspondence seeker waits on
  json bad = seek(
      c, {{"game", "tsoro"}, {"timer", {{"type", "clock"}, {"base_s", 10}, {"increment_s", 0}}}});
  CHECK(bad.at("type") == "error");
  CHECK(bad.at("code") == "bad_message");
}

TEST_CASE("three- and four-player mancala-simple pools fill rooms of three and four",
          "[server][pairing]") {
  RoomsServer fx(pools_config());
  for (int players : {3, 4}) {
    CAPTURE(players);
    std::vector<PoolSeeker> s;
    for (int i = 0; i < players; ++i) {
      s.push_back(seeker(fx.port(), "P" + std::to_string(i)));
      REQUIRE(seek(s.back(), {{"game", "mancala-simple"}, {"players", players}}).at("type") ==
              "seeking");
    }
    std::set<std::string> rooms;
    std::set<int> seats;
    for (auto& x : s) {
      auto seated = paired(x);
      rooms.insert(seated.room), seats.insert(seated.seat);
    }
    CHECK(rooms.size() == 1);
    CHECK(int(seats.size()) == players);
  }
}

TEST_CASE("a pool refuses a second seek, and unseek and disconnect leave it", "[server][pairing]") {
  Config c = pools_config();
  c.pool_wave_ms = 60000;  // no wave during the test
  RoomsServer fx(c);
  auto a = seeker(fx.port(), "Ana");
  auto b = seeker(fx.port(), "Ben");
  json terms = {{"game", "tsoro"}, {"options", {{"columns", 6}}}};
  REQUIRE(seek(a, terms).at("type") == "seeking");
  json again = seek(a, terms);
  CHECK(again.at("code") == "already_seeking");
  CHECK(again.at("re") == "k");
  SECTION("the lobby counts the seeker, in the pool of the normalized terms") {
    auto p = pools(*b.client);
    REQUIRE(p.size() == 1);
    CHECK(p[0].at("waiting") == 1);
    CHECK(p[0].at("players") == 2);
    CHECK(p[0].at("options").at("columns") == 6);
    CHECK(p[0].at("options").at("heads") == "two");  // every option named
    CHECK(http_get(fx.port(), "/api/pools").body.find("\"waiting\":1") != std::string::npos);
  }
  SECTION("unseek: ok, then the pool is empty; a second unseek is no_such_seek") {
    a.client->send({{"type", "unseek"}, {"id", 2}, {"seek", a.seek}});
    CHECK(a.client->expect("ok").at("re") == 2);
    CHECK(pools(*b.client).empty());
    a.client->send({{"type", "unseek"}, {"id", 3}, {"seek", a.seek}});
    CHECK(a.client->expect("error").at("code") == "no_such_seek");
  }
  SECTION("closing the connection leaves every pool at once") {
    REQUIRE(seek(a, {{"game", "mancala-simple"}}).at("type") == "seeking");
    CHECK(pools(*b.client).size() == 2);
    a.client.reset();
    for (int i = 0; i < 50 && !pools(*b.client).empty(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(pools(*b.client).empty());
  }
  SECTION("bad terms are refused as create refuses them") {
    json bad = seek(b, {{"game", "tsoro"}, {"options", {{"columns", 7}}}});
    CHECK(bad.at("code") == "bad_option");
    CHECK(bad.at("problems")[0].at("field") == "columns");
  }
}

TEST_CASE("cpu_after: a seeker still alone after it gets a room with the computer",
          "[server][pairing][cpu]") {
  RoomsServer fx(pools_config());
  auto a = seeker(fx.port(), "Ana");
  REQUIRE(seek(a, {{"game", "tsoro"}, {"cpu_after", 1}, {"level", "random"}, {"ranked", true}})
              .at("type") == "seeking");
  json p = a.client->expect("paired");
  CHECK(p.at("seat") == 0);
  a.client->expect("joined");
  json st = a.client->expect("state");
  CHECK(st.at("seats")[1].at("cpu") == true);
  CHECK(st.at("seats")[1].at("level") == "random");
  a.client->send({{"type", "rooms"}, {"id", 1}});
  json listing;
  do listing = a.client->next();  // the computer's moves come meanwhile
  while (listing.at("type") != "rooms");
  bool listed = false;
  for (const auto& r : listing.at("rooms"))
    if (r.at("room") == p.at("room")) {
      listed = true;
      CHECK(r.at("ranked") == false);  // the computer never plays a ranked room
    }
  CHECK(listed);
}

TEST_CASE("a direct challenge: accepted, declined, cancelled, to an offline player",
          "[server][pairing][challenge]") {
  RoomsServer fx(pools_config());
  auto a = seeker(fx.port(), "Ana");
  auto b = seeker(fx.port(), "Ben");
  auto challenge = [&](const std::string& to) {
    a.client->send({{"type", "challenge"},
                    {"id", "c"},
                    {"player", to},
                    {"game", "tsoro"},
                    {"options", {{"columns", 6}}}});
    return a.client->next();
  };
  json sent = challenge(b.id);
  REQUIRE(sent.at("type") == "challenging");
  const std::string id = sent.at("challenge");
  json got = b.client->expect("challenged");
  CHECK(got.at("challenge") == id);
  CHECK(got.at("from").at("name") == "Ana");
  CHECK(got.at("terms").at("options").at("columns") == 6);
  SECTION("accepted: both are paired into one room, one seat each") {
    b.client->send({{"type", "accept"}, {"id", 1}, {"challenge", id}});
    CHECK(b.client->expect("ok").at("re") == 1);
    json pa = a.client->expect("paired"), pb = b.client->expect("paired");
    CHECK(pa.at("challenge") == id);
    CHECK(pa.at("room") == pb.at("room"));
    CHECK(pa.at("seat") != pb.at("seat"));
    a.client->expect("joined");
    CHECK(a.client->expect("state").at("status") == "playing");
  }
  SECTION("declined: the challenger hears it; the challenge is gone") {
    b.client->send({{"type", "decline"}, {"id", 1}, {"challenge", id}});
    CHECK(b.client->expect("ok").at("re") == 1);
    json e = a.client->expect("challenge_ended");
    CHECK(e.at("reason") == "declined");
    b.client->send({{"type", "accept"}, {"id", 2}, {"challenge", id}});
    CHECK(b.client->expect("error").at("code") == "no_such_challenge");
  }
  SECTION("cancelled: the one challenged hears it") {
    a.client->send({{"type", "cancel"}, {"id", 1}, {"challenge", id}});
    CHECK(a.client->expect("ok").at("re") == 1);
    CHECK(b.client->expect("challenge_ended").at("reason") == "cancelled");
  }
  SECTION("the challenger leaving ends it") {
    a.client.reset();
    CHECK(b.client->expect("challenge_ended").at("reason") == "gone");
  }
  SECTION("offline, unknown, refusing, oneself") {
    auto c = seeker(fx.port(), "Cid");
    const std::string cid = c.id;
    c.client->send({{"type", "challenges"}, {"id", 1}, {"open", false}});
    CHECK(c.client->expect("ok").at("re") == 1);
    CHECK(challenge(cid).at("code") == "challenges_refused");
    c.client.reset();
    json off;
    for (int i = 0; i < 50; ++i) {
      off = challenge(cid);
      if (off.at("code") == "player_offline") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(off.at("code") == "player_offline");
    CHECK(challenge("p-nobody").at("code") == "no_such_player");
    CHECK(challenge(a.id).at("code") == "bad_message");
  }
}
