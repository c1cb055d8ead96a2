// Play now and challenges across three nodes on one Redis and one PostgreSQL (docs/operations.md,
// "Cluster (Redis)", Play now): one pool for the cluster, its waves on the node holding its
// lease, and that node killed.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <thread>

#include "tests/server/cluster/three_nodes.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;

namespace {

struct NodeSeeker {
  std::unique_ptr<ProtocolClient> client;
  std::string id, seek;
  std::size_t node = 0;
  std::vector<json> paired;
};

const json kTerms = {
    {"type", "seek"}, {"id", "k"}, {"game", "tsoro"}, {"options", {{"columns", 6}}}};

NodeSeeker seek_on(const Cluster& c, std::size_t node, const std::string& name) {
  NodeSeeker s;
  s.node = node;
  s.client = std::make_unique<ProtocolClient>(c.port_of(node));
  s.id = s.client->hello(name).at("player").at("id");
  s.client->send(kTerms);
  json m = s.client->expect("seeking");
  s.seek = m.at("seek");
  return s;
}

// Reads until `paired` and the room's first state (the join went through the room's node).
void collect_paired(NodeSeeker& s) {
  for (;;) {
    auto f = s.client->ws().read();
    if (f.got != WsClient::Got::text) break;
    auto m = json::parse(f.text);
    if (m.at("type") == "paired") s.paired.push_back(m);
    if (m.at("type") == "state" && !s.paired.empty()) break;
  }
}

}  // namespace

TEST_CASE("seekers spread over three nodes are paired across nodes, each once",
          "[cluster][pairing]") {
  auto c = start_cluster(kLease, {"--pool-wave-ms", "300"});
  if (!c) return;
  std::vector<NodeSeeker> s;
  for (int i = 0; i < 30; ++i)
    s.push_back(seek_on(*c, std::size_t(i % 3), "S" + std::to_string(i)));
  std::map<std::string, std::vector<std::pair<std::size_t, int>>> rooms;  // room -> (node, seat)
  for (auto& x : s) {
    collect_paired(x);
    REQUIRE(x.paired.size() == 1);
    CHECK(x.paired[0].at("seek") == x.seek);
    rooms[x.paired[0].at("room")].push_back({x.node, x.paired[0].at("seat")});
  }
  CHECK(rooms.size() == 15);
  int across = 0;
  for (const auto& [room, seats] : rooms) {
    REQUIRE(seats.size() == 2);
    CHECK(seats[0].second != seats[1].second);
    across += seats[0].first != seats[1].first;
  }
  CHECK(across > 0);  // some pairs met across nodes, through the relay
  // Every node counts the cluster's pool, empty now, from its next wave on.
  ProtocolClient look(c->port_of(2));
  look.hello("Look");
  json pools;
  for (int i = 0; i < 40; ++i) {
    look.send({{"type", "rooms"}, {"id", i}});
    pools = look.expect("rooms").at("pools");
    if (pools.empty()) break;
    std::this_thread::sleep_for(100ms);
  }
  CHECK(pools.empty());
}

TEST_CASE("kill -9 of the node running a pool's waves: the other nodes' seekers are paired, once",
          "[cluster][pairing]") {
  auto c = start_cluster(kLease, {"--pool-wave-ms", "1000"});
  if (!c) return;
  // One seeker makes the pool, and some node its leader.
  NodeSeeker first = seek_on(*c, 0, "First");
  const std::string pool = first.seek.substr(2, 12);
  std::string leader;
  for (int i = 0; i < 50 && leader.empty(); ++i) {
    leader = c->redis->command({"GET", "tanbo:pool:" + pool + ":lease"}).text().value_or("");
    if (leader.empty()) std::this_thread::sleep_for(100ms);
  }
  REQUIRE(!leader.empty());
  const std::size_t dead = std::size_t(leader[1] - '0');  // n0, n1, n2
  std::vector<NodeSeeker> s;
  for (std::size_t node = 0; node < 3; ++node)
    if (node != dead)
      for (int i = 0; i < 4; ++i)
        s.push_back(seek_on(*c, node, "N" + std::to_string(node) + "-" + std::to_string(i)));
  // First leaves. On a slow machine a wave may have paired it meanwhile: its partner is then
  // paired already, once, which the checks below count like the others, and one more seeker
  // keeps the count even.
  first.client->send({{"type", "unseek"}, {"id", "u"}, {"seek", first.seek}});
  bool first_paired = false;
  for (json m = first.client->next(); m.value("re", json()) != "u"; m = first.client->next())
    first_paired |= m.at("type") == "paired";
  if (first_paired) s.push_back(seek_on(*c, (dead + 1) % 3, "Extra"));
  c->dead = int(dead);
  c->nodes[dead]->kill();
  const auto killed = std::chrono::steady_clock::now();
  std::set<std::string> seeks_paired;
  for (auto& x : s) {
    collect_paired(x);
    REQUIRE(x.paired.size() == 1);
    CHECK(seeks_paired.insert(x.paired[0].at("seek")).second);
  }
  // Within a lease (another node takes the pool) and two waves; slack for a loaded machine.
  CHECK(std::chrono::steady_clock::now() - killed < kLease + 2 * 1000ms + 5s);
  // And nobody twice: a second `paired` would have come with a later wave.
  std::this_thread::sleep_for(2500ms);
  for (auto& x : s) {
    x.client->send({{"type", "ping"}, {"id", "after"}});
    for (;;) {
      json m = x.client->next();
      CHECK(m.at("type") != "paired");
      if (m.at("type") == "pong") break;
    }
  }
}

TEST_CASE("a challenge to a player on another node, accepted there, and cancelled from here",
          "[cluster][challenge]") {
  auto c = start_cluster(kLease, {});
  if (!c) return;
  ProtocolClient ana(c->port_of(0)), ben(c->port_of(1));
  ana.hello("Ana");
  const std::string ben_id = ben.hello("Ben").at("player").at("id");
  // Ben's identity reaches the shared store, and his node names him in Redis, a moment after his
  // hello: a moment that a loaded machine stretches to seconds.
  json sent;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  for (int i = 0; std::chrono::steady_clock::now() < deadline; ++i) {
    ana.send({{"type", "challenge"},
              {"id", i},
              {"player", ben_id},
              {"game", "tsoro"},
              {"options", {{"columns", 6}}}});
    sent = ana.next();
    if (sent.at("type") == "challenging") break;
    REQUIRE((sent.at("code") == "player_offline" || sent.at("code") == "no_such_player"));
    std::this_thread::sleep_for(100ms);
  }
  REQUIRE(sent.at("type") == "challenging");
  const std::string id = sent.at("challenge");
  CHECK(ben.expect("challenged").at("challenge") == id);
  SECTION("accepted on Ben's node: both play the room there") {
    ben.send({{"type", "accept"}, {"id", 1}, {"challenge", id}});
    CHECK(ben.expect("ok").at("re") == 1);
    json pa = ana.expect("paired"), pb = ben.expect("paired");
    CHECK(pa.at("room") == pb.at("room"));
    CHECK(c->owner(pa.at("room")) == "n1");
    ana.expect("joined");
    CHECK(ana.expect("state").at("status") == "playing");
  }
  SECTION("cancelled from Ana's node: Ben hears it") {
    ana.send({{"type", "cancel"}, {"id", 2}, {"challenge", id}});
    CHECK(ana.expect("ok").at("re") == 2);
    CHECK(ben.expect("challenge_ended").at("reason") == "cancelled");
  }
}

TEST_CASE("a player connected to two nodes hears a challenge on both, and answers it on either",
          "[cluster][challenge]") {
  auto c = start_cluster(kLease, {});
  if (!c) return;
  ProtocolClient ana(c->port_of(0)), ben1(c->port_of(1)), ben2(c->port_of(2));
  ana.hello("Ana");
  const json welcome = ben1.hello("Ben");
  const std::string ben_id = welcome.at("player").at("id");
  ben2.hello("", welcome.at("token"));
  // Both of Ben's nodes name him in Redis a moment after his hellos.
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  while (c->present_on(ben_id) != std::set<std::string>{"n1", "n2"}) {
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(50ms);
  }
  json sent;
  for (int i = 0;; ++i) {
    ana.send({{"type", "challenge"}, {"id", i}, {"player", ben_id}, {"game", "mancala-simple"}});
    sent = ana.next();
    if (sent.at("type") == "challenging") break;
    // Ben's identity reaches the shared store a moment after his hello.
    REQUIRE(sent.at("code") == "no_such_player");
    REQUIRE(std::chrono::steady_clock::now() < deadline);
    std::this_thread::sleep_for(100ms);
  }
  const std::string id = sent.at("challenge");
  CHECK(ben1.expect("challenged").at("challenge") == id);
  CHECK(ben2.expect("challenged").at("challenge") == id);
  const auto none_ended = [](ProtocolClient& c) {
    for (const auto& m : c.heard()) CHECK(m.at("type") != "challenge_ended");
  };
  // One of Ben's nodes holds the challenge; each answer is tried on both.
  for (int on = 1; on <= 2; ++on) {
    ProtocolClient& answers = on == 1 ? ben1 : ben2;
    ProtocolClient& other = on == 1 ? ben2 : ben1;
    DYNAMIC_SECTION("accepted on n" << on << ": the other connection hears it, both play") {
      answers.send({{"type", "accept"}, {"id", "a"}, {"challenge", id}});
      CHECK(answers.expect("ok").at("re") == "a");
      CHECK(other.expect("challenge_ended").at("reason") == "accepted");
      json pa = ana.expect("paired"), pb = answers.expect("paired");
      CHECK(pa.at("room") == pb.at("room"));
      ana.expect("joined");
      CHECK(ana.expect("state").at("status") == "playing");
      answers.expect("joined");
      none_ended(answers);
      none_ended(ana);
    }
    DYNAMIC_SECTION("declined on n" << on << ": the challenger and the other connection hear it") {
      answers.send({{"type", "decline"}, {"id", "d"}, {"challenge", id}});
      CHECK(answers.expect("ok").at("re") == "d");
      CHECK(other.expect("challenge_ended").at("reason") == "declined");
      CHECK(ana.expect("challenge_ended").at("reason") == "declined");
      none_ended(answers);
    }
  }
  SECTION("cancelled by the challenger: both of Ben's connections hear it") {
    ana.send({{"type", "cancel"}, {"id", "c"}, {"challenge", id}});
    CHECK(ana.expect("ok").at("re") == "c");
    CHECK(ben1.expect("challenge_ended").at("reason") == "cancelled");
    CHECK(ben2.expect("challenge_ended").at("reason") == "cancelled");
  }
}
