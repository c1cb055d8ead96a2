#include <catch2/catch.hpp>
#include <map>

#include "engine/cli/selfplay.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

namespace {

Json selfplay_without_timings(Json j) {
  for (const char* k : {"elapsed_s", "games_per_s", "decisions_per_s"}) j.erase(k);
  return j;
}

}  // namespace

TEST_CASE("selfplay: the same seed gives the same output apart from timings", "[cli][selfplay]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    SelfplayConfig config{g->id, Json::object(), 0, 30, 7};
    Json a = selfplay(config), b = selfplay(config);
    CHECK(selfplay_without_timings(a) == selfplay_without_timings(b));
    CHECK(a["games"] == 30);
    CHECK(a["unfinished"] == 0);
    std::uint64_t ended = 0;
    for (auto& [reason, count] : a["results"].items()) ended += count.get<std::uint64_t>();
    CHECK(ended == 30);
    config.seed = 8;
    CHECK(selfplay_without_timings(selfplay(config)) != selfplay_without_timings(a));
  }
}

TEST_CASE("selfplay: every recorded game replays to the same result", "[cli][selfplay][replay]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    std::map<std::string, std::uint64_t> replayed;
    Json summary =
        selfplay({g->id, Json::object(), 0, 25, 3}, [&](std::uint64_t n, const Record& r) {
          CAPTURE(n);
          Replay rep = replay(r);
          REQUIRE(rep.match);
          REQUIRE_FALSE(rep.refusal);
          REQUIRE(rep.match->game().status() == Status::finished);
          ++replayed[rep.match->game().result().reason];
        });
    CHECK(Json(replayed) == summary["results"]);
  }
}

TEST_CASE("selfplay: a bad game or option is reported, not played", "[cli][selfplay]") {
  CHECK_THROWS_AS(selfplay({"chess", Json::object(), 0, 1, 1}), std::invalid_argument);
  for (const GameInfo* g : all_games())
    CHECK_THROWS_AS(selfplay({g->id, Json{{"bogus", 1}}, 0, 1, 1}), std::invalid_argument);
}
