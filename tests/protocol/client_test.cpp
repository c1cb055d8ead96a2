#include <catch2/catch.hpp>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "protocol/client.hpp"
#include "protocol/limits.hpp"
#include "support.hpp"

using namespace tanbo_server::protocol;
using tanbo_server::protocol::test::parsed_as;
using tanbo_server::protocol::test::refused;
using Json = tanbo_server::engine::Json;

TEST_CASE("every client message parses from its documented form", "[protocol][client]") {
  SECTION("hello, with and without token and name") {
    auto h = parsed_as<Hello>(R"({"type":"hello","token":"abc","name":"Ana"})");
    CHECK(h.token == "abc");
    CHECK(h.name == "Ana");
    CHECK(parsed_as<Hello>(R"({"type":"hello"})") == Hello{});
  }
  SECTION("games, watch_lobby, unwatch_lobby and ping carry nothing") {
    parsed_as<ListGames>(R"({"type":"games"})");
    parsed_as<WatchLobby>(R"({"type":"watch_lobby"})");
    parsed_as<UnwatchLobby>(R"({"type":"unwatch_lobby"})");
    parsed_as<Ping>(R"({"type":"ping"})");
  }
  SECTION("rooms, with and without a game filter") {
    CHECK(parsed_as<ListRooms>(R"({"type":"rooms","game":"tsoro"})").game == "tsoro");
    CHECK_FALSE(parsed_as<ListRooms>(R"({"type":"rooms"})").game);
  }
  SECTION("create with every field") {
    auto c = parsed_as<Create>(
        R"({"type":"create","game":"mancala-simple","options":{"seeds":4},"players":3,"ranked":true,
            "timer":30,"cpu":[{"seat":1,"level":"mcts"},{"seat":2,"level":"greedy"}],
            "setup":{"pits":[1,2]}})");
    CHECK(c.game == "mancala-simple");
    CHECK(c.options == Json{{"seeds", 4}});
    CHECK(c.players == 3);
    CHECK_FALSE(c.v1_seats);
    CHECK(c.ranked);
    CHECK(c.timer == TimeControl::per_decision(30));
    CHECK(c.cpu == std::vector<CpuSeat>{{1, CpuLevel::mcts}, {2, CpuLevel::greedy}});
    CHECK(c.setup == Json{{"pits", {1, 2}}});
  }
  SECTION("create's count under version 1's name is read apart, for the Client to judge") {
    auto c = parsed_as<Create>(R"({"type":"create","game":"tanbo","seats":2})");
    CHECK_FALSE(c.players);
    CHECK(c.v1_seats == 2);
  }
  SECTION("hello names its protocol version, any integer") {
    CHECK(parsed_as<Hello>(R"({"type":"hello","protocol":2})").protocol == 2);
    CHECK(parsed_as<Hello>(R"({"type":"hello","protocol":7})").protocol == 7);
    CHECK_FALSE(parsed_as<Hello>(R"({"type":"hello"})").protocol);
  }
  SECTION("create with only a game takes the defaults") {
    auto c = parsed_as<Create>(R"({"type":"create","game":"tanbo"})");
    CHECK(c.options == Json::object());
    CHECK_FALSE(c.players);
    CHECK_FALSE(c.v1_seats);
    CHECK_FALSE(c.ranked);
    CHECK_FALSE(c.timer.timed());
    CHECK(c.cpu.empty());
    CHECK(c.setup.is_null());
  }
  SECTION("create with timer none has no timer") {
    CHECK_FALSE(
        parsed_as<Create>(R"({"type":"create","game":"tanbo","timer":"none"})").timer.timed());
  }
  SECTION("create with a game clock or by correspondence") {
    CHECK(
        parsed_as<Create>(
            R"({"type":"create","game":"tanbo","timer":{"type":"clock","base_s":180,"increment_s":2}})")
            .timer == TimeControl::clock(180, 2));
    CHECK(parsed_as<Create>(
              R"({"type":"create","game":"tanbo","timer":{"type":"correspondence","days":3}})")
              .timer == TimeControl::correspondence(3));
    CHECK(parsed_as<Create>(
              R"({"type":"create","game":"tanbo","timer":{"type":"per_decision","seconds":60}})")
              .timer == TimeControl::per_decision(60));
  }
  SECTION("join as player with a seat, and as spectator") {
    auto j = parsed_as<Join>(R"({"type":"join","room":"r1","as":"player","seat":1})");
    CHECK(j == Join{"r1", Role::player, 1});
    CHECK(parsed_as<Join>(R"({"type":"join","room":"r1","as":"spectator"})") ==
          Join{"r1", Role::spectator, std::nullopt});
  }
  SECTION("act keeps the action verbatim, whatever its JSON type") {
    auto a = parsed_as<Act>(R"({"type":"act","room":"r1","version":7,"action":{"sow":3,"x":[1]}})");
    CHECK(a.room == "r1");
    CHECK(a.version == 7);
    CHECK(a.action == Json{{"sow", 3}, {"x", {1}}});
    CHECK(parsed_as<Act>(R"({"type":"act","room":"r","version":0,"action":"c3"})").action == "c3");
    CHECK(parsed_as<Act>(R"({"type":"act","room":"r","version":0,"action":0})").action == 0);
  }
  SECTION("resign, rematch, leave name a room; resume adds a version") {
    CHECK(parsed_as<Resign>(R"({"type":"resign","room":"a"})").room == "a");
    CHECK(parsed_as<Rematch>(R"({"type":"rematch","room":"b"})").room == "b");
    CHECK(parsed_as<Leave>(R"({"type":"leave","room":"c"})").room == "c");
    CHECK(parsed_as<Resume>(R"({"type":"resume","room":"d","version":12})") ==
          Resume{"d", 12, {}, {}});
  }
}

TEST_CASE("a request id is echoed: an integer or a short string", "[protocol][client]") {
  auto id_of = [](std::string_view frame) { return std::get<Request>(parse(frame)).id; };
  CHECK(id_of(R"({"type":"ping","id":42})") == Id{std::int64_t(42)});
  CHECK(id_of(R"({"type":"ping","id":-3})") == Id{std::int64_t(-3)});
  CHECK(id_of(R"({"type":"ping","id":"q-1"})") == Id{std::string("q-1")});
  CHECK_FALSE(has_id(id_of(R"({"type":"ping"})")));
  CHECK_FALSE(has_id(id_of(R"({"type":"ping","id":null})")));

  SECTION("an error after a good id still carries it") {
    auto e = refused(R"({"type":"act","id":"x","room":"r"})");
    CHECK(e.code == ErrorCode::bad_message);
    CHECK(e.re == Id{std::string("x")});
    CHECK(refused(R"({"type":"warp","id":9})").re == Id{std::int64_t(9)});
  }
  SECTION("a bad id is an error without re") {
    for (auto frame :
         {R"({"type":"ping","id":1.5})", R"({"type":"ping","id":[1]})",
          R"({"type":"ping","id":true})", R"({"type":"ping","id":9223372036854775808})"}) {
      CAPTURE(frame);
      auto e = refused(frame);
      CHECK(e.code == ErrorCode::bad_message);
      CHECK_FALSE(has_id(e.re));
    }
    CHECK(refused(R"({"type":"ping","id":")" + std::string(kMaxIdChars + 1, 'x') + "\"}").code ==
          ErrorCode::bad_message);
  }
}

TEST_CASE("unknown fields are ignored and null optional fields are absent", "[protocol][client]") {
  CHECK(parsed_as<Resign>(R"({"type":"resign","room":"a","why":"tired","n":[1,2]})").room == "a");
  auto h = parsed_as<Hello>(R"({"type":"hello","token":null,"name":null})");
  CHECK(h == Hello{});
  auto c = parsed_as<Create>(
      R"({"type":"create","game":"g","options":null,"seats":null,"timer":null,"cpu":null})");
  CHECK(c.options == Json::object());
  CHECK(c.cpu.empty());
}

TEST_CASE("a missing or mistyped field is bad_message naming the field", "[protocol][client]") {
  auto [frame, field] = GENERATE(table<std::string, std::string>({
      {R"({"type":"hello","token":5})", "token"},
      {R"({"type":"hello","token":""})", "token"},
      {R"({"type":"hello","name":["Ana"]})", "name"},
      {R"({"type":"rooms","game":7})", "game"},
      {R"({"type":"create"})", "game"},
      {R"({"type":"create","game":""})", "game"},
      {R"({"type":"create","game":1})", "game"},
      {R"({"type":"create","game":"g","options":[1]})", "options"},
      {R"({"type":"create","game":"g","options":"x"})", "options"},
      {R"({"type":"create","game":"g","seats":0})", "seats"},
      {R"({"type":"create","game":"g","seats":9})", "seats"},
      {R"({"type":"create","game":"g","seats":"2"})", "seats"},
      {R"({"type":"create","game":"g","seats":2.5})", "seats"},
      {R"({"type":"create","game":"g","ranked":1})", "ranked"},
      {R"({"type":"create","game":"g","timer":45})", "timer"},
      {R"({"type":"create","game":"g","timer":"30"})", "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"clock","base_s":29,"increment_s":0}})",
       "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"clock","base_s":3601,"increment_s":0}})",
       "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"clock","base_s":60,"increment_s":61}})",
       "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"clock","base_s":60.5,"increment_s":1}})",
       "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"clock","base_s":60}})", "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"correspondence","days":4}})", "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"correspondence","days":3,"x":1}})", "timer"},
      {R"({"type":"create","game":"g","timer":{"type":"hourglass"}})", "timer"},
      {R"({"type":"create","game":"g","cpu":{"seat":1}})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[1]})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[{"seat":1}]})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[{"level":"mcts"}]})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[{"seat":1,"level":"genius"}]})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[{"seat":8,"level":"mcts"}]})", "cpu"},
      {R"({"type":"create","game":"g","cpu":[{"seat":1,"level":"mcts"},{"seat":1,"level":"random"}]})",
       "cpu"},
      {R"({"type":"join","as":"player"})", "room"},
      {R"({"type":"join","room":"r"})", "as"},
      {R"({"type":"join","room":"r","as":"referee"})", "as"},
      {R"({"type":"join","room":"r","as":"player","seat":-1})", "seat"},
      {R"({"type":"join","room":"r","as":"player","seat":"0"})", "seat"},
      {R"({"type":"act","version":1,"action":"a"})", "room"},
      {R"({"type":"act","room":"r","action":"a"})", "version"},
      {R"({"type":"act","room":"r","version":-1,"action":"a"})", "version"},
      {R"({"type":"act","room":"r","version":1.0,"action":"a"})", "version"},
      {R"({"type":"act","room":"r","version":"1","action":"a"})", "version"},
      {R"({"type":"act","room":"r","version":1})", "action"},
      {R"({"type":"act","room":"r","version":1,"action":null})", "action"},
      {R"({"type":"act","room":12,"version":1,"action":"a"})", "room"},
      {R"({"type":"resign"})", "room"},
      {R"({"type":"rematch","room":""})", "room"},
      {R"({"type":"leave","room":{}})", "room"},
      {R"({"type":"resume","room":"r"})", "version"},
      {R"({"type":"resume","version":3})", "room"},
  }));
  CAPTURE(frame);
  Error e = refused(frame);
  CHECK(e.code == ErrorCode::bad_message);
  CHECK_THAT(e.message, Catch::Contains("\"" + field + "\""));
}

TEST_CASE("a name breaking the name rule is bad_name naming the field", "[protocol][client]") {
  auto frame = GENERATE(as<std::string>{}, R"({"type":"hello","name":""})",
                        R"({"type":"hello","name":"1234567890123456789012345"})",
                        R"({"type":"hello","name":"semi;colon"})");
  CAPTURE(frame);
  Error e = refused(frame);
  CHECK(e.code == ErrorCode::bad_name);
  CHECK_THAT(e.message, Catch::Contains("\"name\""));
}

TEST_CASE("frames that are not messages are refused with a code, never an exception",
          "[protocol][client]") {
  SECTION("an unknown type is unknown_type") {
    CHECK(refused(R"({"type":"move"})").code == ErrorCode::unknown_type);
    CHECK(refused(R"({"type":"Hello"})").code == ErrorCode::unknown_type);
  }
  SECTION("a missing or non-string type is bad_message") {
    CHECK(refused(R"({"room":"r"})").code == ErrorCode::bad_message);
    CHECK(refused(R"({"type":3})").code == ErrorCode::bad_message);
    CHECK(refused(R"({"type":null})").code == ErrorCode::bad_message);
  }
  SECTION("text that is not JSON is bad_json") {
    for (auto frame : {"", "{", "{\"type\":\"ping\"", "ping", "{'type':'ping'}",
                       "{\"type\":\"ping\"}x", "[1,]", "{\"a\":1,}"}) {
      CAPTURE(frame);
      CHECK(refused(frame).code == ErrorCode::bad_json);
    }
  }
  SECTION("JSON that is not an object is bad_message") {
    for (auto frame : {"[]", "[{\"type\":\"ping\"}]", "\"ping\"", "42", "null", "true"}) {
      CAPTURE(frame);
      CHECK(refused(frame).code == ErrorCode::bad_message);
    }
  }
  SECTION("invalid UTF-8 in a string or a key is bad_json") {
    CHECK(refused("{\"type\":\"hello\",\"name\":\"A\xff\"}").code == ErrorCode::bad_json);
    CHECK(refused("{\"type\":\"hello\",\"name\":\"\xc3\"}").code == ErrorCode::bad_json);
    CHECK(refused("{\"type\":\"ping\",\"\xed\xa0\x80\":1}").code == ErrorCode::bad_json);
    CHECK(refused(R"({"type":"hello","name":"\ud800"})").code == ErrorCode::bad_json);
  }
  SECTION("huge numbers are refused where a field needs a bounded integer") {
    CHECK(refused(R"({"type":"resume","room":"r","version":1e400})").code == ErrorCode::bad_json);
    CHECK(refused(R"({"type":"resume","room":"r","version":18446744073709551616})").code ==
          ErrorCode::bad_message);
    CHECK(refused(R"({"type":"join","room":"r","as":"player","seat":4294967296})").code ==
          ErrorCode::bad_message);
    CHECK(parsed_as<Resume>(R"({"type":"resume","room":"r","version":18446744073709551615})")
              .version == 18446744073709551615ull);
  }
  SECTION("a frame over the limit is too_large, whatever it holds") {
    std::string big = R"({"type":"ping","pad":")" + std::string(kMaxFrameBytes, 'x') + "\"}";
    CHECK(refused(big).code == ErrorCode::too_large);
    std::string fits = R"({"type":"ping","pad":")";
    fits += std::string(kMaxFrameBytes - fits.size() - 2, 'x') + "\"}";
    REQUIRE(fits.size() == kMaxFrameBytes);
    parsed_as<Ping>(fits);
  }
  SECTION("nesting beyond the limit is bad_json; brackets inside strings do not count") {
    std::string deep =
        R"({"type":"ping","x":)" + std::string(kMaxDepth, '[') + std::string(kMaxDepth, ']') + "}";
    CHECK(refused(deep).code == ErrorCode::bad_json);
    std::string shallow = R"({"type":"ping","x":)" + std::string(kMaxDepth - 1, '[') +
                          std::string(kMaxDepth - 1, ']') + "}";
    parsed_as<Ping>(shallow);
    parsed_as<Ping>(R"({"type":"ping","x":")" + std::string(100, '[') + R"(\"[[["})");
  }
}

TEST_CASE("a login comes with hello, never with a token", "[protocol][client][accounts]") {
  auto h = parsed_as<Hello>(
      R"({"type":"hello","login":{"username":"ana","password":"correct horse battery"}})");
  REQUIRE(h.login);
  CHECK(h.login->username == "ana");
  CHECK(
      refused(R"({"type":"hello","token":"t","login":{"username":"a","password":"b"}})").message ==
      "field \"login\": give a token or a login, not both");
  CHECK(refused(R"({"type":"hello","login":{"username":"a"}})").message ==
        "field \"login\": field \"password\": missing");
  CHECK(refused(R"({"type":"hello","login":"ana"})").code == ErrorCode::bad_message);
  CHECK(refused(R"({"type":"claim","username":"ana","password":""})").code ==
        ErrorCode::bad_message);
  CHECK(parsed_as<Logout>(R"({"type":"logout","everywhere":null})").everywhere == false);
  CHECK(refused(R"({"type":"hello","token":"t","access_token":"tbp_x"})").message ==
        "field \"access_token\": give one token, not both");
  CHECK(
      refused(R"({"type":"hello","access_token":"tbp_x","login":{"username":"a","password":"b"}})")
          .message == "field \"login\": give an access token or a login, not both");
}

TEST_CASE("client messages round-trip through their JSON form", "[protocol][client]") {
  std::vector<Request> requests = {
      {std::int64_t(1), Hello{"tok", "Ana"}},
      {std::string("h"), Hello{}},
      {{}, ListGames{}},
      {std::int64_t(-9), ListRooms{"tanbo"}},
      {{}, ListRooms{}},
      {{}, WatchLobby{}},
      {{}, UnwatchLobby{}},
      {std::int64_t(3), Create{"tsoro",
                               Json{{"relay", true}},
                               2,
                               std::nullopt,
                               true,
                               TimeControl::per_decision(60),
                               {{1, CpuLevel::random}},
                               Json{{"a", 1}}}},
      {{}, Create{"tanbo", Json::object(), std::nullopt, 2, false, {}, {}, nullptr}},
      {{}, Create{"tanbo", Json::object(), 2, {}, false, TimeControl::clock(300, 3), {}, nullptr}},
      {{},
       Create{"tanbo", Json::object(), 2, {}, false, TimeControl::correspondence(14), {}, nullptr}},
      {std::int64_t(4), Hello{"tok", "Ana", {}, 2}},
      {{}, MyGames{}},
      {{}, Join{"r", Role::player, 0}},
      {{}, Join{"r", Role::spectator, std::nullopt}},
      {std::string("act-1"), Act{"r", 41, Json{{"pit", 2}}}},
      {{}, Act{"r", 0, "resign"}},
      {{}, Resign{"r"}},
      {{}, Rematch{"r"}},
      {{}, Leave{"r"}},
      {{}, Resume{"r", 99, {}, {}}},
      {{}, Resume{"r", 99, 3, std::nullopt}},
      {"c", Say{"r", Channel::spectators, "gg", ""}},
      {{}, Say{"r", Channel::players, "", "well_played"}},
      {{}, Mute{"p1"}},
      {{}, Unmute{"p1"}},
      {{}, Report{"p1", "r", "rude"}},
      {{}, Report{"p1", std::nullopt, "spam"}},
      {{}, SpectatorChat{"r", false}},
      {std::int64_t(4), FillCpu{"r", CpuLevel::mcts}},
      {std::int64_t(0), Ping{}},
      {"s", Seek{{"tsoro", 2, {{"columns", 6}}, TimeControl::per_decision(30), true},
                 20,
                 CpuLevel::greedy}},
      {{}, Seek{{"tanbo", std::nullopt, Json::object(), {}, false}, std::nullopt, CpuLevel::mcts}},
      {std::int64_t(5), Unseek{"s-0123456789ab-ffeedd"}},
      {{},
       Challenge{"p1234",
                 {"mancala-simple", 2, {{"stones", 3}}, TimeControl::clock(60, 1), false}}},
      {"a", Accept{"c-01"}},
      {{}, Decline{"c-02"}},
      {std::int64_t(6), Cancel{"c-03"}},
      {{}, Challenges{false}},
      {"l", Hello{std::nullopt, "Ana", Login{"ana", "correct horse battery"}}},
      {"q", Claim{"Ana.Player", "correct horse battery"}},
      {{}, Logout{}},
      {{}, Logout{true}},
      {std::int64_t(7), ChangePassword{"correct horse battery", "a much better passphrase"}},
      {"b", BecomeBot{}},
      {"h", Hello{std::nullopt, std::nullopt, std::nullopt, 2, "tbp_0123456789abcdef"}},
      {{}, Seek{{"tanbo", 2, Json::object(), {}, false, true}, std::nullopt, CpuLevel::mcts}},
  };
  for (const auto& r : requests) {
    std::string text = to_json(r).dump();
    CAPTURE(text);
    Parsed p = parse(text);
    REQUIRE(std::holds_alternative<Request>(p));
    CHECK(std::get<Request>(p) == r);
    CHECK(tanbo_server::protocol::test::schemas()
              .validate("client-" + std::string(type_of(r.message)) + ".json", to_json(r))
              .empty());
  }
  SECTION("every client message type is covered") {
    std::set<std::string_view> seen;
    for (const auto& r : requests) seen.insert(type_of(r.message));
    CHECK(seen.size() == client_types().size());
  }
}

TEST_CASE("mangled frames never throw and always give a message or a code", "[protocol][client]") {
  const std::vector<std::string> seeds = {
      R"({"type":"create","game":"tanbo","options":{"first":1},"cpu":[{"seat":1,"level":"mcts"}]})",
      R"({"type":"act","id":5,"room":"r1","version":12,"action":{"token":"snake","n":[1,2]}})",
      R"({"type":"hello","token":"0123456789abcdef","name":"Ana"})",
  };
  std::mt19937 rng(20240607);
  int accepted = 0, refusedn = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string f = seeds[std::size_t(i) % seeds.size()];
    for (int k = int(rng() % 4) + 1; k > 0; --k) {
      std::size_t at = rng() % f.size();
      switch (rng() % 3) {
        case 0:
          f[at] = char(rng() % 256);
          break;
        case 1:
          f.erase(at, 1);
          break;
        default:
          f.insert(at, 1, "{}[]\",:0\\e-"[rng() % 11]);
          break;
      }
    }
    Parsed p = parse(f);  // noexcept: a throw would terminate the test run
    if (std::holds_alternative<Request>(p))
      ++accepted;
    else {
      ++refusedn;
      CHECK_FALSE(std::get<Error>(p).message.empty());
    }
  }
  CHECK(refusedn > 0);
  CHECK(accepted > 0);
}
