#include <catch2/catch.hpp>

#include <chrono>
#include <memory>

#include "tests/server/rooms/fixture.hpp"
#include "tests/server/support/eventually.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

TEST_CASE("the lobby lists rooms and pushes their changes at most once per 500 ms",
          "[server][rooms][lobby]") {
  RoomsServer fx;
  ProtocolClient watcher(fx.port());
  watcher.hello("Watcher");
  watcher.send({{"type", "watch_lobby"}});
  ProtocolClient ping_check(fx.port());  // watch_lobby has no reply: a ping orders the test
  ping_check.hello();

  Table t = Table::seat(fx.port(), "mancala-simple", 2, 0);
  auto first = watcher.expect("lobby");
  auto t_first = std::chrono::steady_clock::now();
  REQUIRE(first.at("changed").size() == 1);
  CHECK(first.at("changed")[0].at("room") == t.room);

  SECTION("rooms lists the room with its seats, filtered by game") {
    watcher.send({{"type", "rooms"}, {"id", 1}, {"game", "mancala-simple"}});
    auto listed = watcher.expect("rooms");
    REQUIRE(listed.at("rooms").size() == 1);
    const auto& r = listed.at("rooms")[0];
    CHECK(r.at("status") == "playing");
    CHECK(r.at("seats")[1].at("connected") == true);
    CHECK(r.at("options").contains("first"));
    watcher.send({{"type", "rooms"}, {"id", 2}, {"game", "tanbo"}});
    CHECK(watcher.expect("rooms").at("rooms").empty());
  }
  SECTION("the listing follows the turn from move to move, and so do the pushes") {
    // A move that only passes the turn updates the listing in place; seen at least once here.
    std::uint64_t version = t.state.at("version");
    int turns_passed = 0;
    for (int move = 0; move < 12 && t.state.at("status") == "playing"; ++move) {
      const int seat = t.deciding();
      const json& legal = t.seen[std::size_t(seat)].at("legal");
      t.at(seat).send({{"type", "act"},
                       {"room", t.room},
                       {"version", version},
                       {"action", legal[std::size_t(move) % legal.size()]}});
      t.read_states(++version);
      turns_passed += t.deciding() != seat;
      watcher.send({{"type", "rooms"}, {"id", 10 + move}});
      json answer;
      do answer = watcher.next();  // the pushes of earlier moves may come first
      while (answer.at("type") == "lobby");
      REQUIRE(answer.at("type") == "rooms");
      auto rooms = answer.at("rooms");
      REQUIRE(rooms.size() == 1);
      const json expected = t.deciding() >= 0 ? json(t.deciding()) : json(nullptr);
      CHECK(rooms[0].at("to_move") == expected);
      CHECK(rooms[0].at("status") == t.state.at("status"));
    }
    REQUIRE(turns_passed > 0);
    // A push within the interval carries the last turn too (expect() fails after its wait).
    const json expected = t.deciding() >= 0 ? json(t.deciding()) : json(nullptr);
    json pushed;
    do pushed = watcher.expect("lobby");
    while (pushed.at("changed").empty() || pushed.at("changed")[0].at("to_move") != expected);
  }
  SECTION("a later change comes in the next push, no sooner than the interval") {
    t.at(1).send({{"type", "leave"}, {"id", 3}, {"room", t.room}});
    t.at(1).expect("left");
    auto next = watcher.expect("lobby");
    CHECK(std::chrono::steady_clock::now() - t_first >= std::chrono::milliseconds(450));
    REQUIRE(next.at("changed").size() == 1);
    CHECK(next.at("changed")[0].at("seats")[1].at("connected") == false);
  }
  SECTION("unwatch_lobby stops the pushes") {
    // A second watcher gets the push the first would have had, in the same round.
    ProtocolClient still(fx.port());
    still.hello("Still");
    still.send({{"type", "watch_lobby"}});
    still.send({{"type", "ping"}, {"id", 1}});
    still.expect("pong");
    watcher.send({{"type", "unwatch_lobby"}});
    watcher.send({{"type", "ping"}, {"id", 4}});
    watcher.expect("pong");
    t.at(1).send({{"type", "leave"}, {"id", 5}, {"room", t.room}});
    t.at(1).expect("left");
    json pushed;
    do pushed = still.expect("lobby");
    while (pushed.at("changed").empty() || pushed.at("changed")[0].at("room") != t.room ||
           pushed.at("changed")[0].at("seats")[1].at("connected") != false);
    watcher.send({{"type", "ping"}, {"id", 6}});
    CHECK(watcher.next().at("type") == "pong");  // no lobby push came first
  }
}

TEST_CASE("connections beyond max_connections are refused at the upgrade",
          "[server][rooms][limits]") {
  Config c = rooms_config();
  c.max_connections = 2;
  RoomsServer fx(c);
  ProtocolClient a(fx.port()), b(fx.port());
  a.hello();
  b.hello();
  CHECK_THROWS(ProtocolClient(fx.port()));
  b.ws().close();
  // The place comes back once the server has seen the close.
  std::unique_ptr<ProtocolClient> d;
  CHECK(eventually([&] {
    try {
      d = std::make_unique<ProtocolClient>(fx.port());
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }));
  REQUIRE(d);
  CHECK(d->hello().contains("token"));
}
