#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "bench/load/options.hpp"
#include "bench/load/scan.hpp"

using namespace tanbo_server::load;

TEST_CASE("the scanner reads the top-level members a load client follows", "[load][scan]") {
  Scanned s;
  SECTION("a state with legal appended: nested members of the same name are not taken") {
    std::string text =
        R"({"commit":"ab","events":[{"type":"sow","version":99}],"game":"mancala-simple",)"
        R"("pending":{"seat":0,"decision":"sow"},"room":"r-1","seats":[{"seat":0,"player":)"
        R"({"id":"p1","name":"A \"q\" }"}}],"state":{"status":"x","pits":[[4,4]]},)"
        R"("status":"playing","type":"state","version":12,"legal":[{"hole":1},{"hole":2}]})";
    REQUIRE(scan(text, s));
    CHECK(s.type == "state");
    CHECK(s.room == "r-1");
    CHECK(s.status == "playing");
    REQUIRE(s.version);
    CHECK(*s.version == 12);
    CHECK(s.legal == R"([{"hole":1},{"hole":2}])");
  }
  SECTION("an error keeps its code and the raw re") {
    REQUIRE(scan(R"({"type":"error","re":105,"code":"stale_version","message":"x"})", s));
    CHECK(s.code == "stale_version");
    CHECK(s.re == "105");
    CHECK(s.legal.empty());
    CHECK(!s.version);
  }
  SECTION("whitespace between tokens is allowed") {
    REQUIRE(scan(" { \"type\" : \"pong\" , \"re\" : \"p-1\" } ", s));
    CHECK(s.type == "pong");
    CHECK(s.re == "\"p-1\"");
  }
  SECTION("malformed text is refused") {
    for (std::string bad : {"", "[]", "{", R"({"type":"state")", R"({"type" "x"})", R"({"a":[1,2})",
                            R"({"a":"unterminated})", R"({"a":1} x)"}) {
      CAPTURE(bad);
      CHECK_FALSE(scan(bad, s));
    }
  }
}

TEST_CASE("split_array gives each element's raw text, to be sent back verbatim", "[load][scan]") {
  std::vector<std::string_view> out;
  REQUIRE(split_array(R"([{"hole":1},"pass",[1,[2]],3])", out));
  REQUIRE(out.size() == 4);
  CHECK(out[0] == R"({"hole":1})");
  CHECK(out[1] == R"("pass")");
  CHECK(out[2] == "[1,[2]]");
  CHECK(out[3] == "3");
  REQUIRE(split_array("[]", out));
  CHECK(out.empty());
  CHECK_FALSE(split_array("[1,", out));
  CHECK_FALSE(split_array("{}", out));
}

namespace {
ParseOutcome parse(std::vector<std::string_view> args) { return parse_options(args); }
}  // namespace

TEST_CASE("tanbo-load only loads a server on this machine", "[load][options]") {
  SECTION("loopback URLs are accepted") {
    for (std::string_view url : {"ws://127.0.0.1:9000/ws", "ws://localhost:80/ws",
                                 "ws://[::1]:8080/ws", "ws://127.3.2.1:1/"}) {
      CAPTURE(url);
      auto out = parse({"--url", url, "--rooms", "1"});
      REQUIRE(std::holds_alternative<Options>(out));
    }
    auto o = std::get<Options>(parse({"--url", "ws://localhost:9000/ws", "--rooms", "1"}));
    REQUIRE(o.servers.size() == 1);
    CHECK(o.servers[0].host == "127.0.0.1");
    CHECK(o.servers[0].port == 9000);
    CHECK(o.servers[0].target == "/ws");
    CHECK(o.servers[0].url == "ws://localhost:9000/ws");
  }
  SECTION("without --url, the default server alone") {
    auto o = std::get<Options>(parse({"--rooms", "1"}));
    REQUIRE(o.servers.size() == 1);
    CHECK(o.servers[0].url == "ws://127.0.0.1:8080/ws");
    CHECK(o.servers[0].port == 8080);
  }
  SECTION("--url repeated: the nodes of a cluster, in order, each of them checked") {
    auto out = parse({"--url", "ws://127.0.0.1:9001/ws", "--url", "ws://localhost:9002/ws", "--url",
                      "ws://[::1]:9003/x", "--rooms", "3"});
    REQUIRE(std::holds_alternative<Options>(out));
    auto o = std::get<Options>(out);
    REQUIRE(o.servers.size() == 3);
    CHECK(o.servers[0].port == 9001);
    CHECK(o.servers[1].host == "127.0.0.1");
    CHECK(o.servers[1].port == 9002);
    CHECK(o.servers[2].host == "::1");
    CHECK(o.servers[2].target == "/x");
    for (std::string_view outsider : {"ws://10.0.0.1:9002/ws", "ws://example.org/ws"}) {
      CAPTURE(outsider);
      auto refused = parse({"--url", "ws://127.0.0.1:9001/ws", "--url", outsider, "--url",
                            "ws://127.0.0.1:9003/ws", "--rooms", "3"});
      REQUIRE(std::holds_alternative<OptionsError>(refused));
      CHECK_THAT(std::get<OptionsError>(refused).message, Catch::Contains("loopback"));
    }
  }
  SECTION("any other host is refused, naming it") {
    for (std::string_view url : {"ws://10.0.0.1:8080/ws", "ws://example.org/ws",
                                 "ws://127.0.0.1.example.org/ws", "ws://128.0.0.1/ws"}) {
      CAPTURE(url);
      auto out = parse({"--url", url, "--rooms", "1"});
      REQUIRE(std::holds_alternative<OptionsError>(out));
      CHECK_THAT(std::get<OptionsError>(out).message, Catch::Contains("loopback"));
    }
    CHECK(std::holds_alternative<OptionsError>(parse({"--url", "wss://127.0.0.1/ws"})));
  }
}

TEST_CASE("tanbo-load's counts and times are bounded", "[load][options]") {
  SECTION("beyond the connection cap") {
    auto out = parse({"--rooms", "1000", "--spectators-per-room", "100"});
    REQUIRE(std::holds_alternative<OptionsError>(out));
    CHECK_THAT(std::get<OptionsError>(out).message, Catch::Contains("connections"));
  }
  SECTION("durations, seats and unknown flags") {
    CHECK(std::holds_alternative<OptionsError>(parse({"--rooms", "1", "--duration", "4000"})));
    CHECK(std::holds_alternative<OptionsError>(parse({"--rooms", "1", "--players-per-room", "9"})));
    CHECK(std::holds_alternative<OptionsError>(parse({"--rooms", "1", "--fast", "1"})));
    CHECK(std::holds_alternative<OptionsError>(parse({})));
  }
  SECTION("the issue's flags parse") {
    auto out = parse({"--rooms", "10", "--players-per-room", "2", "--spectators-per-room", "3",
                      "--game", "tanbo", "--duration", "2.5", "--think-ms", "20", "--idle", "7",
                      "--server-pid", "42", "--threads", "2"});
    REQUIRE(std::holds_alternative<Options>(out));
    auto o = std::get<Options>(out);
    CHECK(o.connections() == 10 * 5 + 7);
    CHECK(o.game == "tanbo");
    CHECK(o.duration == 2.5);
    CHECK(o.think_ms == 20);
    CHECK(o.server_pids == std::vector<int>{42});
    CHECK(o.threads == 2);
  }
  SECTION("--server-pid repeated") {
    auto o = std::get<Options>(
        parse({"--rooms", "1", "--server-pid", "42", "--server-pid", "43", "--server-pid", "44"}));
    CHECK(o.server_pids == std::vector<int>{42, 43, 44});
  }
}

TEST_CASE("tanbo-load spreads a room's members over the servers, its owner's first",
          "[load][options]") {
  // One server: everyone on it.
  for (int member = 0; member < 5; ++member) CHECK(server_of(7, member, 1) == 0);
  // Three: room k is created on node k mod 3, and of a room's 2 players and 3 spectators only
  // one other member is on its owner.
  for (int room = 0; room < 6; ++room) {
    CAPTURE(room);
    CHECK(server_of(room, 0, 3) == std::size_t(room % 3));
    int on_owner = 0;
    for (int member = 1; member < 5; ++member)
      on_owner += server_of(room, member, 3) == server_of(room, 0, 3) ? 1 : 0;
    CHECK(on_owner == 1);
  }
}
