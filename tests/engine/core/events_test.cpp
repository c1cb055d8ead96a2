// A step's events as the referee sends them: JSON text written member by member.
#include <catch2/catch.hpp>

#include "engine/core/events.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

TEST_CASE("Events are one JSON array, each event's type first and its members in order",
          "[core][events]") {
  Events ev;
  CHECK(ev.text() == "[]");
  CHECK(ev.empty());
  ev.add("turn", "seat", 1, "turn", std::uint8_t(7));
  ev.add("extra_move");
  ev.add("note", "text", std::string("a \"quoted\"\nline"), "winner", Json(nullptr), "replay", true,
         "roots", Json::array({1, 2}));
  CHECK(ev.size() == 3);
  CHECK(
      ev.text() ==
      R"([{"type":"turn","seat":1,"turn":7},{"type":"extra_move"},)"
      R"({"type":"note","text":"a \"quoted\"\nline","winner":null,"replay":true,"roots":[1,2]}])");
  CHECK(ev.json() == R"([{"type": "turn", "seat": 1, "turn": 7}, {"type": "extra_move"},
        {"type": "note", "text": "a \"quoted\"\nline", "winner": null, "replay": true,
         "roots": [1, 2]}])"_json);

  SECTION("an empty optional writes no member, a function writes its value") {
    ev.clear();
    CHECK(ev.text() == "[]");
    ev.add("place", "by", std::optional<std::string_view>(), "stones_left", std::optional(3),
           "pits", [](JsonSink& out) {
             out.begin_array();
             out.begin_object();
             out.member("hole", "store");
             out.end_object();
             out.end_array();
           });
    CHECK(ev.text() == R"([{"type":"place","stones_left":3,"pits":[{"hole":"store"}]}])");
  }
  SECTION("long strings and long events are written whole, across the writer's blocks") {
    ev.clear();
    const std::string long_name(300, 'n'), long_quoted = std::string(200, 'q') + "\"";
    Json expected = Json::array();
    for (int i = 0; i < 20; ++i) {
      ev.add("long", "name", long_name, "quoted", long_quoted, "i", i, "flag", i % 2 == 0);
      expected.push_back({{"type", "long"},
                          {"name", long_name},
                          {"quoted", long_quoted},
                          {"i", i},
                          {"flag", i % 2 == 0}});
    }
    CHECK(ev.size() == 20);
    CHECK(ev.json() == expected);
    CHECK(ev.text().starts_with(R"([{"type":"long","name":")" + long_name + R"(","quoted":")"));
  }
  SECTION("text past ASCII is kept, bytes that are not UTF-8 replaced as in every frame") {
    ev.clear();
    ev.add("say", "name", "Zo\xC3\xAB", "bad", "\xFF");
    CHECK(ev.text() == "[{\"type\":\"say\",\"name\":\"Zo\xC3\xAB\",\"bad\":\"\xEF\xBF\xBD\"}]");
  }
}

namespace {

std::unique_ptr<Match> started(std::string_view game, std::string_view seed) {
  Record head;
  head.game = std::string(game);
  head.players = 2;
  head.seed = seed_from_text(seed);
  Problems problems;
  auto m = Match::start(head, problems);
  REQUIRE(m);
  return m;
}

}  // namespace

TEST_CASE("The referee's own events: start, action with who chose it, end with its reason",
          "[core][match][events]") {
  auto m = started("mancala-simple", "events");
  Json ev = m->events().json();
  REQUIRE(ev.size() >= 1);
  CHECK(ev[0].at("type") == "start");
  CHECK(ev[0].at("first") == m->first());

  const Json action = m->legal_json()[0];
  const Seat seat = m->game().pending().seat;
  SECTION("an action chosen for the seat names who chose it") {
    REQUIRE_FALSE(m->act(seat, action, "cpu"));
    ev = m->events().json();
    CHECK(ev[0] == Json{{"type", "action"}, {"seat", seat}, {"action", action}, {"by", "cpu"}});
    CHECK(m->events().text().starts_with(R"([{"type":"action","seat":)"));
  }
  SECTION("an action of the seat's own has no `by`") {
    REQUIRE_FALSE(m->act(seat, action));
    CHECK(m->events().json()[0] == Json{{"type", "action"}, {"seat", seat}, {"action", action}});
  }
  SECTION("a time-out that ends the game gives the reason `time` in the end event and result") {
    REQUIRE_FALSE(m->time_out(seat));
    ev = m->events().json();
    REQUIRE(ev.size() >= 2);
    CHECK(ev.front() == Json{{"type", "time"}, {"seat", seat}});
    CHECK(ev.back().at("type") == "end");
    CHECK(ev.back().at("result").at("reason") == "time");
    CHECK(m->result().reason == "time");
  }
  SECTION("a resignation that ends the game keeps the game's own reason") {
    REQUIRE_FALSE(m->resign(seat));
    ev = m->events().json();
    CHECK(ev.back().at("result").at("reason") == "resigned");
    CHECK(m->result().reason == "resigned");
  }
}

TEST_CASE("A renamed type is written with its name now, and with version 1's in that text",
          "[core][events]") {
  Events ev;
  ev.add(Renamed{"paddy_action", "action"}, "seat", 0, "letter", "A");
  ev.add("sow", "seat", 0);
  ev.add(Renamed{"paddy_action", "action"}, "seat", 1);
  const std::string now =
      R"([{"type":"paddy_action","seat":0,"letter":"A"},{"type":"sow","seat":0},)"
      R"({"type":"paddy_action","seat":1}])";
  CHECK(ev.text() == now);
  CHECK(ev.text(Names::v2) == now);
  CHECK_FALSE(ev.same_in(Names::v1));
  CHECK(ev.text(Names::v1) == R"([{"type":"action","seat":0,"letter":"A"},{"type":"sow","seat":0},)"
                              R"({"type":"action","seat":1}])");
  ev.clear();
  ev.add("sow", "seat", 0);
  CHECK(ev.same_in(Names::v1));
  CHECK(ev.text(Names::v1) == ev.text());
}
