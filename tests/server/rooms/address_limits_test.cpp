// docs/operations.md, "Limits": per-address limits on new identities and unfinished rooms, the
// address read from X-Forwarded-For only when a trusted proxy sent it.
#include <catch2/catch.hpp>

#include "tests/server/rooms/fixture.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

Config behind_proxy() {
  Config c = rooms_config();
  c.trusted_proxies = {"127.0.0.1"};  // the test clients stand for a proxy on this machine
  c.guests_per_minute = 3;
  c.rooms_per_address = 2;
  return c;
}

json hello_from(ProtocolClient& c, int id, const json& token = nullptr) {
  json h = {{"type", "hello"}, {"id", id}};
  if (!token.is_null()) h["token"] = token;
  c.send(h);
  return c.next();
}

}  // namespace

TEST_CASE("an address makes at most --guests-per-minute new identities a minute",
          "[server][rooms][limits]") {
  RoomsServer fx(behind_proxy());
  std::vector<std::unique_ptr<ProtocolClient>> clients;
  json token;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(std::make_unique<ProtocolClient>(fx.port(), "203.0.113.7"));
    json w = hello_from(*clients.back(), i);
    REQUIRE(w.at("type") == "welcome");
    token = w.at("token");
  }
  ProtocolClient fourth(fx.port(), "203.0.113.7");
  json e = hello_from(fourth, 9);
  CHECK(e.at("type") == "error");
  CHECK(e.at("code") == "too_many_guests");
  CHECK(e.at("re") == 9);
  SECTION("an identity already made still comes back with its token") {
    CHECK(hello_from(fourth, 10, token).at("type") == "welcome");
  }
  SECTION("another address is not held back") {
    ProtocolClient other(fx.port(), "198.51.100.2");
    CHECK(hello_from(other, 11).at("type") == "welcome");
  }
  SECTION("nor is a client that writes the header itself, past no trusted proxy") {
    Config open = rooms_config();
    open.guests_per_minute = 1;
    RoomsServer direct(open);
    for (int i = 0; i < 3; ++i) {
      ProtocolClient c(direct.port(), "203.0.113.7");  // ignored: loopback, never limited
      CHECK(hello_from(c, i).at("type") == "welcome");
    }
  }
}

TEST_CASE("the identities of one address own at most --rooms-per-address unfinished rooms",
          "[server][rooms][limits]") {
  RoomsServer fx(behind_proxy());
  ProtocolClient ana(fx.port(), "203.0.113.7"), ben(fx.port(), "203.0.113.7");
  ana.hello("Ana");
  ben.hello("Ben");
  auto create = [](ProtocolClient& c, int id) {
    c.send({{"type", "create"}, {"id", id}, {"game", "tsoro"}});
    json m = c.next();
    if (m.at("type") == "created") c.expect("state");
    return m;
  };
  CHECK(create(ana, 1).at("type") == "created");
  CHECK(create(ben, 2).at("type") == "created");  // each identity is far from its own limit
  json e = create(ben, 3);
  CHECK(e.at("code") == "too_many_rooms");
  CHECK(e.at("re") == 3);
  ProtocolClient carl(fx.port(), "198.51.100.2");
  carl.hello("Carl");
  CHECK(create(carl, 4).at("type") == "created");
}
