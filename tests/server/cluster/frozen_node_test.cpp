// A node frozen (SIGSTOP) past its lease while a move waits for it, its room taken over by another
// node, then woken (SIGCONT): the store refuses its write (fencing by the room's epoch), so the new
// owner's move at the same version is the one stored, and the frozen node's client is told.
#include <catch2/catch.hpp>

#include <csignal>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace frozen_node_test {

struct Player {
  Guest guest;
  json last;  // the latest state read
};

json state_from(ProtocolClient& c, std::uint64_t at_least) {
  for (;;) {
    auto m = c.next();
    if (m.at("type") == "state" && m.at("version").get<std::uint64_t>() >= at_least) return m;
  }
}

}  // namespace frozen_node_test

TEST_CASE("a node woken after its lease cannot write in the room another node took over",
          "[cluster][fencing]") {
  namespace fn = frozen_node_test;
  auto c = start_cluster();
  if (!c) return;
  // Both seats on n0, the room's owner.
  fn::Player ana{guest(c->ports[0], "Ana"), {}}, ben{guest(c->ports[0], "Ben"), {}};
  ana.guest.client->send(
      {{"type", "create"}, {"id", "c"}, {"game", "mancala-simple"}, {"options", json::object()}});
  const std::string room = ana.guest.client->expect("created").at("room");
  ben.guest.client->send({{"type", "join"}, {"room", room}, {"as", "player"}});
  ana.last = fn::state_from(*ana.guest.client, 1);
  ben.last = fn::state_from(*ben.guest.client, 1);
  REQUIRE(c->listed_everywhere(room));
  REQUIRE(c->owner(room) == "n0");

  fn::Player& mover = ana.last.contains("legal") ? ana : ben;
  const std::uint64_t v = mover.last.at("version");
  const json& legal = mover.last.at("legal");
  const json stale_action = legal.at(0), fresh_action = legal.at(legal.size() - 1);

  // Frozen past its lease, with a move waiting in its socket.
  REQUIRE(c->nodes[0]->process().freeze());
  mover.guest.client->send(
      {{"type", "act"}, {"id", "stale"}, {"room", room}, {"version", v}, {"action", stale_action}});
  std::string owner;
  for (int i = 0; i < 200 && (owner.empty() || owner == "n0"); ++i) {
    std::this_thread::sleep_for(100ms);
    owner = c->owner(room);
  }
  REQUIRE((owner == "n1" || owner == "n2"));
  const auto owner_port = c->ports[owner == "n1" ? 1 : 2];

  // The mover again, on the new owner: the room there is at the version it was taken at.
  auto again = guest(owner_port, "", mover.guest.token);
  json joined;
  for (int i = 0; i < 100; ++i) {  // the key is set before the room is rebuilt
    again.client->send({{"type", "join"}, {"id", "j"}, {"room", room}, {"as", "player"}});
    joined = again.client->next_but_states();
    if (joined.at("type") == "joined") break;
    std::this_thread::sleep_for(100ms);
  }
  REQUIRE(joined.at("type") == "joined");
  const json taken = fn::state_from(*again.client, 0);
  CHECK(taken.at("version") == v);

  // Awake: its write is refused by the store (or it learns of the loss first); never an `ok`.
  c->nodes[0]->process().signal(SIGCONT);
  bool closed = false;
  while (!closed) {
    auto f = mover.guest.client->ws().read();
    if (f.got != WsClient::Got::text) {
      closed = true;
      break;
    }
    const json m = json::parse(f.text);
    CAPTURE(m);
    if (m.value("re", json()) == "stale") CHECK(m.at("type") == "error");  // never `ok`
    if (m.at("type") == "state") CHECK(m.at("version") == v);  // nothing of the move shown
  }

  // The new owner's move at the same version is stored: no duplicate, the room plays on.
  again.client->send(
      {{"type", "act"}, {"id", "fresh"}, {"room", room}, {"version", v}, {"action", fresh_action}});
  json ok;
  while ((ok = again.client->next()).at("type") == "state") {
  }
  CAPTURE(ok);
  REQUIRE(ok.at("type") == "ok");
  CHECK(ok.at("version") == v + 1);
  const json record = get_json(owner_port, "/api/games/" + room + "-1");
  REQUIRE(record.at("actions").size() == v);
  CHECK(record.at("actions").back().at("action") == fresh_action);
}
