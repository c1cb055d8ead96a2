// A game the computer finished for an absent player (docs/rules.md, "Results"): the result names
// the seat (`takeover`), its record marks the computer's decisions (`by`), and the ratings count
// it as the last, whatever the computer won; a player who came back and decided last finished
// the game themselves. The ratings reach the room's members with the result, after a restart too.
#include <catch2/catch.hpp>
#include <thread>

#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
using nlohmann::json;

namespace {

// Whether a state's events hold a decision the computer made for `seat` while its player was
// away.
bool taken_over(const json& state, int seat) {
  for (const auto& e : state.at("events"))
    if (e.at("type") == "action" && e.at("seat") == seat && e.value("by", "") == "takeover")
      return true;
  return false;
}

json ratings_of(const json& state) { return state.at("result").at("ratings"); }

}  // namespace

TEST_CASE("results: a game the computer finished for an absent player is not counted as theirs",
          "[persist][recovery][takeover][ratings]") {
  DataDir dir;
  ServerProcess server(dir, {"--takeover-grace", "1"});
  Guest ana = guest(server.port(), "Ana");
  Guest bo = guest(server.port(), "Bo");
  ana.client->send({{"type", "create"},
                    {"id", 1},
                    {"game", "mancala-simple"},
                    {"ranked", true},
                    {"options", {{"first", 0}}}});
  const std::string room = ana.client->expect("created").at("room");
  bo.client->send({{"type", "join"}, {"room", room}, {"as", "player"}});
  state_at(*bo.client, 1);
  json s = state_at(*ana.client, 1);
  bo.client.reset();  // Bo's connection drops: past the grace the computer plays his seat

  // Ana plays until the computer has decided for Bo.
  bool computer = false;
  for (int guard = 0; guard < 100 && !computer; ++guard) {
    REQUIRE(s.at("status") == "playing");
    const std::uint64_t v = s.at("version");
    if (s.at("pending").at("seat") == 0)
      ana.client->send(
          {{"type", "act"}, {"room", room}, {"version", v}, {"action", s.at("legal").at(0)}});
    s = state_at(*ana.client, v + 1);
    computer = taken_over(s, 1);
  }
  REQUIRE(computer);
  const std::uint64_t at = s.at("version");

  SECTION("the computer decided last for Bo: his seat's win is not his") {
    // Ana resigns: on the board the computer wins in Bo's seat.
    ana.client->send({{"type", "resign"}, {"room", room}});
    json end;
    do end = state_at(*ana.client, at + 1);
    while (end.at("status") != "finished");
    CHECK(end.at("result").at("places") == json({2, 1}));
    CHECK(end.at("result").at("takeover") == json({1}));
    // Rated as if Bo had resigned when he left: Ana above him.
    CHECK(ratings_of(end) == json::parse(R"([{"before": 1500, "after": 1516},
                                              {"before": 1500, "after": 1484}])"));

    SECTION("the record says which decisions were the computer's, and the result") {
      auto record = get_json(server.port(), "/api/games/" + room + "-1");
      CHECK(record.at("result").at("takeover") == json({1}));
      int by_computer = 0;
      for (const auto& a : record.at("actions")) {
        if (a.contains("by")) {
          CHECK(a.at("by") == "takeover");
          CHECK(a.at("seat") == 1);
          ++by_computer;
        } else if (a.at("action") != "resign") {
          CHECK(a.at("seat") == 0);  // Ana's own
        }
      }
      CHECK(by_computer >= 1);
      CHECK(record.at("players_info")[1].at("rating_after") == 1484);
      // The replay's events carry it too.
      auto steps = get_json(server.port(), "/api/games/" + room + "-1/steps").at("steps");
      int marked = 0;
      for (const auto& st : steps)
        if (taken_over(st, 1)) ++marked;
      CHECK(marked == by_computer);
      // Bo's page: the rating the game left him.
      auto bo_page = get_json(server.port(), "/api/players/" + bo.id);
      CHECK(bo_page.at("ratings").at("mancala-simple").at("rating") == 1484);
    }
    SECTION("a restart keeps the finished room's takeover and ratings in its state") {
      REQUIRE(server.terminate() == std::optional<int>(0));
      ServerProcess again(dir, {"--takeover-grace", "1"});
      ProtocolClient c(again.port());
      c.hello("", ana.token);
      c.send({{"type", "join"}, {"id", 1}, {"room", room}, {"as", "player"}});
      c.expect("joined");
      json back = c.expect("state");
      CHECK(back.at("status") == "finished");
      CHECK(back.at("result") == end.at("result"));
    }
  }

  SECTION("Bo came back and made his own last decision: the result counts") {
    Guest back = guest(server.port(), "", bo.token);
    back.client->send({{"type", "join"}, {"id", 2}, {"room", room}, {"as", "player"}});
    back.client->expect("joined");
    json sb = back.client->expect("state");
    // A decision the computer was asked before Bo came back may still be its own; from the
    // next version on the seat is his.
    const std::uint64_t back_at = sb.at("version");
    bool own = false;
    for (int guard = 0; guard < 200 && !own; ++guard) {
      REQUIRE(sb.at("status") == "playing");
      const std::uint64_t v = sb.at("version");
      if (sb.at("pending").at("seat") == 1) {
        if (v > back_at) {
          back.client->send(
              {{"type", "act"}, {"room", room}, {"version", v}, {"action", sb.at("legal").at(0)}});
          own = true;
        }
      } else {
        s = state_at(*ana.client, v);
        ana.client->send(
            {{"type", "act"}, {"room", room}, {"version", v}, {"action", s.at("legal").at(0)}});
      }
      sb = state_at(*back.client, v + 1);
      if (own) REQUIRE_FALSE(taken_over(sb, 1));
    }
    REQUIRE(own);
    REQUIRE(sb.at("status") == "playing");
    ana.client->send({{"type", "resign"}, {"room", room}});
    json end;
    do end = state_at(*back.client, sb.at("version").get<std::uint64_t>() + 1);
    while (end.at("status") != "finished");
    CHECK(end.at("result").at("places") == json({2, 1}));
    CHECK_FALSE(end.at("result").contains("takeover"));
    CHECK(ratings_of(end) == json::parse(R"([{"before": 1500, "after": 1484},
                                              {"before": 1500, "after": 1516}])"));
  }
}
