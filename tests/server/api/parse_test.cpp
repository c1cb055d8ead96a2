// Requests are judged before any store work: the parse is pure.
#include <catch2/catch.hpp>

#include "server/api/api.hpp"

using namespace tanbo_server::server::api;

namespace {

template <class T>
T query_of(std::string_view target) {
  auto parsed = parse("GET", target);
  REQUIRE(std::holds_alternative<Query>(parsed));
  const auto& q = std::get<Query>(parsed);
  REQUIRE(std::holds_alternative<T>(q));
  return std::get<T>(q);
}

unsigned refusal(std::string_view method, std::string_view target) {
  auto parsed = parse(method, target);
  REQUIRE(std::holds_alternative<Reply>(parsed));
  return std::get<Reply>(parsed).status;
}

}  // namespace

TEST_CASE("the list defaults to 20 games and takes each parameter once decoded",
          "[server][api][parse]") {
  SECTION("defaults") {
    auto q = query_of<ListGames>("/api/games");
    CHECK(q.limit == kListLimitDefault);
    CHECK_FALSE(q.player);
    CHECK_FALSE(q.game);
    CHECK_FALSE(q.before);
  }
  SECTION("every parameter, percent- and plus-decoded; the first of a repeat wins") {
    auto q = query_of<ListGames>(
        "/api/games?player=Al+i%63e&game=tsoro&limit=5&before=17.3&limit=9&other=1");
    CHECK(q.player == "Al ice");
    CHECK(q.game == "tsoro");
    CHECK(q.limit == 5);
    CHECK(q.before == "17.3");
  }
}

TEST_CASE("ids come from the path, decoded, anything else is refused", "[server][api][parse]") {
  CHECK(query_of<GetGame>("/api/games/r%2D1").id == "r-1");
  CHECK(query_of<GetPlayer>("/api/players/p1?x=1").id == "p1");
  CHECK(query_of<GetLeaderboard>("/api/leaderboard?game=tanbo").game == "tanbo");
  CHECK(refusal("GET", "/api/games/a/b") == 404u);
  CHECK(refusal("GET", "/api/games/%4") == 404u);
  CHECK(refusal("GET", "/api") == 404u);
  CHECK(refusal("DELETE", "/api/games/r-1") == 405u);
  CHECK(refusal("GET", "/api/games?limit=1%") == 400u);
}

TEST_CASE("only /api and what lies below it is the API's", "[server][api][parse]") {
  CHECK(is_api_path("/api/games"));
  CHECK(is_api_path("/api"));
  CHECK_FALSE(is_api_path("/apix"));
  CHECK_FALSE(is_api_path("/healthz"));
}
