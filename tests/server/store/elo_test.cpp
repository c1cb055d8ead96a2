#include <cmath>

#include "server/store/elo.hpp"
#include "tests/server/store/support.hpp"

using namespace tanbo_server::server::store;

namespace {
double expected(double a, double b) { return 1.0 / (1.0 + std::pow(10.0, (b - a) / 400.0)); }
}  // namespace

TEST_CASE("M7: two players score 1 for a win, 0.5 for a draw, 0 for a loss, K = 32",
          "[store][elo]") {
  SECTION("a win of the lower-rated player") {
    const std::vector<int> places{1, 2};
    const std::vector<double> before{1400, 1600};
    auto after = elo_updates(places, before);
    REQUIRE(after.size() == 2);
    const double ea = expected(1400, 1600);  // 0.240253...
    CHECK(std::abs(after[0] - (1400 + 32 * (1 - ea))) < 1e-9);
    CHECK(std::abs(after[1] - (1600 + 32 * (0 - (1 - ea)))) < 1e-9);
    CHECK(std::abs(after[0] - 1424.311902) < 1e-6);  // the value, to guard the formula itself
  }
  SECTION("a draw moves the higher-rated player down") {
    const std::vector<int> places{1, 1};
    const std::vector<double> before{1700, 1500};
    auto after = elo_updates(places, before);
    const double ea = expected(1700, 1500);
    CHECK(std::abs(after[0] - (1700 + 32 * (0.5 - ea))) < 1e-9);
    CHECK(std::abs(after[1] - (1500 + 32 * (0.5 - (1 - ea)))) < 1e-9);
    CHECK(after[0] < 1700);
  }
  SECTION("equal players, a win is worth 16") {
    const std::vector<int> places{2, 1};
    const std::vector<double> before{kInitialRating, kInitialRating};
    auto after = elo_updates(places, before);
    CHECK(after[0] == 1484.0);
    CHECK(after[1] == 1516.0);
  }
}

TEST_CASE("M7: four players are scored pairwise, a shared place counts half, K / (n - 1)",
          "[store][elo]") {
  // Seat 0 first, seats 1 and 2 share second, seat 3 last.
  const std::vector<int> places{1, 2, 2, 4};
  const std::vector<double> r{1500, 1600, 1450, 1700};
  auto after = elo_updates(places, r);
  REQUIRE(after.size() == 4);
  const double k = 32.0 / 3.0;
  const double d0 =
      (1 - expected(r[0], r[1])) + (1 - expected(r[0], r[2])) + (1 - expected(r[0], r[3]));
  const double d1 =
      (0 - expected(r[1], r[0])) + (0.5 - expected(r[1], r[2])) + (1 - expected(r[1], r[3]));
  const double d2 =
      (0 - expected(r[2], r[0])) + (0.5 - expected(r[2], r[1])) + (1 - expected(r[2], r[3]));
  const double d3 =
      (0 - expected(r[3], r[0])) + (0 - expected(r[3], r[1])) + (0 - expected(r[3], r[2]));
  CHECK(std::abs(after[0] - (r[0] + k * d0)) < 1e-9);
  CHECK(std::abs(after[1] - (r[1] + k * d1)) < 1e-9);
  CHECK(std::abs(after[2] - (r[2] + k * d2)) < 1e-9);
  CHECK(std::abs(after[3] - (r[3] + k * d3)) < 1e-9);
  SECTION("the points only move between players") {
    CHECK(std::abs((after[0] + after[1] + after[2] + after[3]) - (r[0] + r[1] + r[2] + r[3])) <
          1e-9);
  }
}
