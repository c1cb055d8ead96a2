// Several tanbo-server nodes on one redis-server, all real processes on loopback: the registry,
// the room owners' leases and the lobby across nodes (docs/operations.md, "Cluster (Redis)").
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>

#include "tests/server/cluster/redis_process.hpp"

using namespace tanbo_server::server::test;
using namespace std::chrono_literals;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr auto kNodeLease = 1500ms;

// Without redis-server here the test fails, or under TANBO_TEST_ALLOW_MISSING=1 this is null and
// the test returns, reported as skipped (tests/support/missing.hpp).
std::unique_ptr<RedisProcess> start_redis() {
  auto binary = find_redis_server();
  if (binary.empty() && tanbo_server::test::skip_missing(kNoRedis)) return nullptr;
  return std::make_unique<RedisProcess>(binary);
}

// Polls until `done` or the time runs out; how long it took, or nullopt.
std::optional<std::chrono::milliseconds> within(std::chrono::milliseconds limit,
                                                const std::function<bool()>& done) {
  auto start = Clock::now();
  while (Clock::now() - start < limit) {
    if (done()) return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

// The entry GET /api/rooms lists for `room`, or null.
json listed(std::uint16_t port, const std::string& room) {
  const auto lobby = get_json(port, "/api/rooms");  // held: the loop reads into it
  for (const auto& r : lobby.at("rooms"))
    if (r.at("room") == room) return r;
  return nullptr;
}

// A waiting room created on the node at `port`, by a client that stays seated in it.
struct OpenRoom {
  explicit OpenRoom(std::uint16_t port) : client(port) {
    client.hello("Creator");
    client.send({{"type", "create"}, {"id", 1}, {"game", "mancala-simple"}, {"players", 2}});
    id = client.expect("created").at("room");
  }
  ProtocolClient client;
  std::string id;
};

// A lobby watcher whose every frame is checked against the protocol's schemas, "node" included.
struct LobbyWatcher {
  explicit LobbyWatcher(std::uint16_t port) : client(port) {
    client.hello("Watcher");
    client.send({{"type", "watch_lobby"}});
  }
  json next() { return client.next(); }
  // Reads pushes until one says `room` changed (returned) or was removed (null).
  json until_about(const std::string& room) {
    for (;;) {
      auto m = next();
      if (m.at("type") != "lobby") continue;
      for (const auto& r : m.at("changed"))
        if (r.at("room") == room) return r;
      for (const auto& r : m.at("removed"))
        if (r == room) return nullptr;
    }
  }
  ProtocolClient client;
};

long long pttl(const RedisProcess& redis, const std::string& key) {
  return redis.command({"PTTL", key}).integer().value_or(-3);
}

}  // namespace

TEST_CASE("nodes register, own their rooms and share their lobbies through Redis", "[cluster]") {
  auto redis = start_redis();
  if (!redis) return;
  Node a(*redis, "node-a", kNodeLease), b(*redis, "node-b", kNodeLease);
  LobbyWatcher watcher(b.port());
  OpenRoom room(a.port());

  SECTION("a room created on A is listed by B, pushed to B's watchers, with A's id") {
    json on_b;
    REQUIRE(within(3s, [&] { return !(on_b = listed(b.port(), room.id)).is_null(); }));
    CHECK(on_b.at("node") == "node-a");
    CHECK(on_b.at("game") == "mancala-simple");
    CHECK(on_b.at("status") == "waiting");
    CHECK(listed(a.port(), room.id).at("node") == "node-a");
    auto pushed = watcher.until_about(room.id);
    REQUIRE(pushed.is_object());
    CHECK(pushed.at("node") == "node-a");

    // The `rooms` request serves the same merged listing.
    watcher.client.send({{"type", "rooms"}, {"id", 7}});
    json reply;
    while ((reply = watcher.next()).at("type") != "rooms") {
    }
    auto in = std::find_if(reply.at("rooms").begin(), reply.at("rooms").end(),
                           [&](const json& r) { return r.at("room") == room.id; });
    REQUIRE(in != reply.at("rooms").end());
    CHECK(in->at("node") == "node-a");
  }

  SECTION("the node keys and the room's owner key exist with a TTL within the lease") {
    for (const std::string key : {"tanbo:node:node-a", "tanbo:node:node-b"}) {
      CAPTURE(key);
      auto ttl = pttl(*redis, key);
      CHECK(ttl > 0);
      CHECK(ttl <= kNodeLease.count());
    }
    auto node = json::parse(redis->command({"GET", "tanbo:node:node-a"}).text().value_or("{}"));
    CHECK(node.at("id") == "node-a");
    CHECK(node.at("address") == "127.0.0.1:" + std::to_string(a.port()));
    CHECK(node.at("started_at").get<long long>() > 0);

    const auto owner = "tanbo:room:" + room.id + ":owner";
    CHECK(redis->command({"GET", owner}).text() == "node-a");
    auto ttl = pttl(*redis, owner);
    CHECK(ttl > 0);
    CHECK(ttl <= kNodeLease.count());
    // Renewed: still held after several leases.
    std::this_thread::sleep_for(kNodeLease * 2);
    CHECK(redis->command({"GET", owner}).text() == "node-a");
    CHECK(pttl(*redis, "tanbo:lobby:node-a") > 0);
  }

  SECTION("kill -9 of A: its rooms leave B's lobby within the lease and 2 s") {
    REQUIRE(within(3s, [&] { return !listed(b.port(), room.id).is_null(); }));
    REQUIRE(watcher.until_about(room.id).is_object());
    a.kill();
    auto gone = within(kNodeLease + 2s, [&] { return listed(b.port(), room.id).is_null(); });
    REQUIRE(gone);
    INFO("gone from B's GET /api/rooms after " << gone->count() << " ms");
    CHECK(watcher.until_about(room.id).is_null());  // pushed as removed
    CHECK(redis->command({"EXISTS", "tanbo:node:node-a"}).integer() == 0);
  }

  SECTION("a clean SIGTERM of A deletes its keys at once") {
    REQUIRE(within(3s, [&] { return !listed(b.port(), room.id).is_null(); }));
    REQUIRE(a.terminate() == 0);
    for (const auto& key : std::vector<std::string>{"tanbo:node:node-a", "tanbo:lobby:node-a"}) {
      CAPTURE(key);
      CHECK(redis->command({"EXISTS", key}).integer() == 0);
    }
    // Released: B may take it over at once (here it finds nothing to rebuild in its own store).
    CHECK(redis->command({"GET", "tanbo:room:" + room.id + ":owner"}).text() != "node-a");
    CHECK(redis->command({"EXISTS", "tanbo:node:node-b"}).integer() == 1);
    // Told at once, B drops the rooms well before the lease would have expired.
    CHECK(within(kNodeLease / 2, [&] { return listed(b.port(), room.id).is_null(); }));
  }
}

TEST_CASE("after a Redis restart the nodes register again and keep their rooms", "[cluster]") {
  auto redis = start_redis();
  if (!redis) return;
  Node a(*redis, "node-a", kNodeLease), b(*redis, "node-b", kNodeLease);
  OpenRoom room(a.port());
  const auto owner = "tanbo:room:" + room.id + ":owner";
  REQUIRE(within(3s, [&] { return !listed(b.port(), room.id).is_null(); }));

  redis->restart();  // empty: every key is gone
  auto back = within(kNodeLease + 3s, [&] {
    return redis->command({"GET", owner}).text() == "node-a" &&
           redis->command({"EXISTS", "tanbo:node:node-a", "tanbo:node:node-b"}).integer() == 2 &&
           !listed(b.port(), room.id).is_null();
  });
  REQUIRE(back);
  CHECK(a.process().wait_for_line("cluster: back in touch with", 1s));
  // The lobby across nodes follows again: a room created now reaches B.
  OpenRoom later(a.port());
  CHECK(within(3s, [&] { return !listed(b.port(), later.id).is_null(); }));
}

TEST_CASE("a room whose lease another node holds is closed with a reason", "[cluster]") {
  auto redis = start_redis();
  if (!redis) return;
  Node a(*redis, "node-a", kNodeLease);
  OpenRoom room(a.port());
  const auto owner = "tanbo:room:" + room.id + ":owner";
  REQUIRE(within(3s, [&] { return redis->command({"GET", owner}).text() == "node-a"; }));

  redis->command({"SET", owner, "node-z", "PX", "60000"});  // as a takeover by another node would
  json error;
  while ((error = room.client.next()).at("type") != "error") {
  }
  CHECK(error.at("code") == "room_moved");
  CHECK(error.at("message").get<std::string>().find("node-z") != std::string::npos);
  CHECK(room.client.expect_close() == 1001);
  CHECK(listed(a.port(), room.id).is_null());
  CHECK(redis->command({"GET", owner}).text() == "node-z");  // the release left it alone
  CHECK(a.process().wait_for_line("room " + room.id + " lost", 1s));
}

TEST_CASE("a node started with a bad --cluster URL exits 2 and says why", "[cluster]") {
  DataDir dir;
  for (const std::string url : {"http://127.0.0.1:6379", "redis://", "redis://host:99999",
                                "redis://user:pw@host:6379", "redis://::1:6379"}) {
    CAPTURE(url);
    ChildProcess p(server_binary(), {"--cluster", url, "--data-dir", dir.path.string()});
    CHECK(p.wait(10s) == 2);
    CHECK(p.stderr_text().find("--cluster: ") != std::string::npos);
  }
  SECTION("and --node-id without --cluster is refused too") {
    ChildProcess p(server_binary(), {"--node-id", "x", "--data-dir", dir.path.string()});
    CHECK(p.wait(10s) == 2);
    CHECK(p.stderr_text().find("need --cluster") != std::string::npos);
  }
}

TEST_CASE("a node that cannot reach its Redis exits 1 and says why", "[cluster]") {
  DataDir dir;
  ChildProcess p(server_binary(),
                 {"--cluster", "redis://127.0.0.1:" + std::to_string(free_port()), "--port", "0",
                  "--bind", "127.0.0.1", "--data-dir", dir.path.string()});
  CHECK(p.wait(20s) == 1);
  CHECK(p.stderr_text().find("cannot join the cluster") != std::string::npos);
}
