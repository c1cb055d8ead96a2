// Chat across three nodes (docs/protocol.md, "Chat"; docs/operations.md, "Moderation"): a room's
// lines go through its owner, so each channel has one order; a mute made on one node holds in a
// room of another; the operators' calls on any node reach the room and the player where they are;
// the channel follows the room when its node is killed.
#include <catch2/catch.hpp>

#include <fstream>
#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

constexpr const char* kToken = "cluster-operator-token-9876543210";

void say(ProtocolClient& c, const std::string& room, const std::string& channel,
         const std::string& text) {
  c.send({{"type", "say"}, {"room", room}, {"channel", channel}, {"text", text}});
}

// Joins `room` on whichever node answers, retrying while the room moves; the `joined`.
json rejoin(Guest& s, std::uint16_t port, const std::string& room, const std::string& as) {
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  for (;;) {
    try {
      s = guest(port, "", s.token);
      s.client->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", as}});
      json m = s.client->next_but_states();
      if (m.at("type") == "joined") return m;
    } catch (const std::exception&) {
    }
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("no way back into " + room);
    std::this_thread::sleep_for(200ms);
  }
}

}  // namespace

TEST_CASE("chat through the room's owner, mutes and moderation across nodes, and a failover",
          "[cluster][chat]") {
  DataDir files;
  std::filesystem::create_directories(files.path);
  const auto token_file = files.path / "admin-token";
  std::ofstream(token_file) << kToken;
  std::filesystem::permissions(token_file, std::filesystem::perms(0600));
  auto c = start_cluster(kLease, {"--admin-token-file", token_file.string()});
  if (!c) return;
  // Ana creates on n0 (the room's owner); Bo plays from n1; Cid watches from n2.
  Guest ana = guest(c->port_of(0), "Ana"), bo = guest(c->port_of(1), "Bo"),
        cid = guest(c->port_of(2), "Cid");
  ana.client->send({{"type", "create"}, {"id", 1}, {"game", "mancala-simple"}});
  const std::string room = ana.client->expect("created").at("room");
  // The others know the room once its listing reaches them (within the lobby's debounce): the
  // joins below go straight to its owner, and a failover takes it over.
  REQUIRE(c->listed_everywhere(room));
  bo.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
  REQUIRE(bo.client->next_but_states().at("type") == "joined");
  cid.client->send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "spectator"}});
  REQUIRE(cid.client->next_but_states().at("type") == "joined");
  // From the room's node as one message: its state, then the pong n2 answers at once.
  cid.client->send({{"type", "ping"}, {"id", "p"}});
  CHECK(cid.client->next().at("type") == "state");
  CHECK(cid.client->expect("pong").at("re") == "p");
  REQUIRE(c->owner(room) == "n0");

  // One order for the channel, whichever node a line comes from.
  say(*bo.client, room, "players", "hello from n1");
  say(*ana.client, room, "players", "hello from n0");
  std::vector<json> seen_by_ana{ana.client->next_but_states(), ana.client->next_but_states()};
  std::vector<json> seen_by_bo{bo.client->next_but_states(), bo.client->next_but_states()};
  CHECK(seen_by_ana == seen_by_bo);
  CHECK(seen_by_ana[0].at("n") == 1);
  CHECK(seen_by_ana[1].at("n") == 2);
  say(*cid.client, room, "spectators", "go Bo");
  CHECK(cid.client->next_but_states().at("n") == 1);
  CHECK(ana.client->hears_nothing());
  CHECK(bo.client->hears_nothing());

  SECTION("Bo mutes Ana on n1: her lines in the room on n0 no longer reach him") {
    // Bo's ok comes once the room on n0 follows: a line said after it obeys the mute, or the
    // unmute. Cycles, since a late forward loses the race only now and then. A room no node runs,
    // which Bo asked for, holds up no ok and answers nothing.
    bo.client->send({{"type", "join"}, {"id", "x"}, {"room", "r-nowhere"}, {"as", "spectator"}});
    REQUIRE(bo.client->next_but_states().at("code") == "no_such_room");
    int n = 3;
    for (int cycle = 0; cycle < 3; ++cycle) {
      if (cycle > 0) std::this_thread::sleep_for(1s);  // Ana's chat: 5 lines at once, 1 a second
      bo.client->send({{"type", "mute"}, {"id", "m"}, {"player", ana.id}});
      REQUIRE(bo.client->next_but_states() == json{{"type", "ok"}, {"re", "m"}});
      say(*ana.client, room, "players", "can you hear me? " + std::to_string(cycle));
      CHECK(ana.client->next_but_states().at("n") == n++);
      CHECK(bo.client->hears_nothing());
      bo.client->send({{"type", "unmute"}, {"id", "u"}, {"player", ana.id}});
      REQUIRE(bo.client->next_but_states() == json{{"type", "ok"}, {"re", "u"}});
      say(*ana.client, room, "players", "and now? " + std::to_string(cycle));
      CHECK(ana.client->next_but_states().at("n") == n);
      CHECK(bo.client->next_but_states().at("n") == n++);
    }
  }

  SECTION("the lines the room on n0 refuses give Bo's chat tokens back on n1, where he is") {
    // Bo has said one line: four of his five are left, however many lines the room refuses.
    for (int i = 0; i < 10; ++i) {
      say(*bo.client, room, "players", "hello from n1");
      CHECK(bo.client->next_but_states().at("code") == "chat_repeated");
    }
    for (int i = 0; i < 4; ++i) {
      say(*bo.client, room, "players", "new line " + std::to_string(i));
      CHECK(bo.client->next_but_states().at("text") == "new line " + std::to_string(i));
    }
  }

  SECTION("an operator on n2 removes a line of the room on n0, shadow-mutes and bans Bo on n1") {
    const std::string bearer = std::string("Bearer ") + kToken;
    auto r = http_request(c->port_of(2), "DELETE", "/api/admin/rooms/" + room + "/chat/players/1",
                          bearer);
    REQUIRE(r.status == 200);
    json unsaid = {{"type", "unsaid"}, {"room", room}, {"channel", "players"}, {"n", 1}};
    CHECK(ana.client->next_but_states() == unsaid);
    CHECK(bo.client->next_but_states() == unsaid);
    CHECK(http_request(c->port_of(2), "DELETE", "/api/admin/rooms/" + room + "/chat/players/1",
                       "Bearer wrong")
              .status == 401);

    REQUIRE(http_request(c->port_of(2), "PUT",
                         "/api/admin/identities/" + bo.id + "/shadow-mute?minutes=10", bearer)
                .status == 200);
    // Bo's node learns it from the cluster: his line reaches only himself.
    bool muted = false;
    for (int i = 0; i < 10 && !muted; ++i) {  // one line a second: the chat's own limit
      say(*bo.client, room, "players", "spam " + std::to_string(i));
      REQUIRE(bo.client->next_but_states().at("text") == "spam " + std::to_string(i));
      muted = ana.client->heard().empty();
      if (!muted) std::this_thread::sleep_for(1s);
    }
    CHECK(muted);

    REQUIRE(http_request(c->port_of(2), "PUT", "/api/admin/identities/" + bo.id + "/ban", bearer)
                .status == 200);
    CHECK(bo.client->next_but_states().at("code") == "banned");
    CHECK(bo.client->expect_close() == 1008);
    ProtocolClient again(c->port_of(1));
    again.send({{"type", "hello"}, {"id", "h"}, {"token", bo.token}});
    CHECK(again.next().at("code") == "banned");
  }

  SECTION("n0 killed: the room moves with its chat, and numbering goes on") {
    // Taken over are the rooms the others saw listed (waited for above).
    c->nodes[0]->kill();
    c->dead = 0;
    json joined = rejoin(ana, c->port_of(1), room, "player");
    REQUIRE(joined.at("chat").at("players").size() == 2);
    CHECK(joined.at("chat").at("players")[1].at("text") == seen_by_ana[1].at("text"));
    json watching = rejoin(cid, c->port_of(2), room, "spectator");
    CHECK(watching.at("chat").at("spectators")[0].at("text") == "go Bo");
    CHECK(c->owner(room) != "n0");
    say(*ana.client, room, "players", "still here");
    json line = ana.client->next_but_states();
    CHECK(line.at("n") == 3);
    CHECK(line.at("text") == "still here");
  }
}
