// Properties over seeded random games played through the engine interface: conservation of the
// components, termination, non-empty legal lists, refusal of illegal actions, exact replay.
#include <set>

#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "support.hpp"

using namespace tanbo_server::engine::games::tanbo;
using namespace tanbo_server::engine::games::tanbo::test;
namespace core = ::tanbo_server::engine;

namespace {

// Every fourth game runs with non-default options, so each option's paths are walked too.
Json options_for(int n) {
  switch (n % 4) {
    case 1:
      return {{"replay_cascade", false}};
    case 2:
      return {{"forbid_noop_swap", true}, {"farmer_counts_toward_limit", true}};
    case 3:
      return {{"stall_rounds", 1}};
  }
  return Json::object();
}

}  // namespace

TEST_CASE(
    "Properties: 10,000 random games conserve every component, never lack a legal action, "
    "end, and replay byte for byte",
    "[tanbo][properties]") {
  constexpr int kGames = 10000;
  constexpr int kMaxSteps = 200000;
  core::ActionList legal;
  std::set<std::string> reasons;
  long long steps_total = 0;
  for (int n = 0; n < kGames; ++n) {
    core::Record record;
    record.game = "tanbo";
    record.options = options_for(n);
    record.seed = core::seed_from_text("tanbo-properties:" + std::to_string(n));
    core::Drbg rng(record.seed);
    core::Created created = core::create_game("tanbo", record.options, nullptr, 2, rng);
    REQUIRE(created.game);
    core::Game& g = *created.game;
    core::FastRng pick(std::uint64_t(n) * 7919 + 1);
    const bool recorded = n % 25 == 0;  // 400 games go through engine::replay
    std::string broken;
    int steps = 0;
    for (; steps < kMaxSteps && g.status() != core::Status::finished; ++steps) {
      g.legal_actions(legal);
      if (legal.empty()) {
        broken = "no legal action for a pending " + std::string(g.pending().decision);
        break;
      }
      const Action a = legal[pick.below(std::uint32_t(legal.size()))];
      // R4: only real choices are recorded; replay re-derives the forced ones.
      if (recorded && legal.size() > 1)
        record.actions.push_back({g.pending().seat, g.action_json(a)});
      g.apply(a, rng, nullptr);
      broken = g.invariant_violation();
      if (!broken.empty()) break;
    }
    INFO("game " << n << " step " << steps << ": " << g.state_json().dump());
    REQUIRE(broken == "");
    REQUIRE(g.status() == core::Status::finished);
    reasons.insert(g.result().reason);
    steps_total += steps;
    if (!recorded) continue;
    const core::Replay replayed = core::replay(record);
    REQUIRE(replayed.match);
    REQUIRE(replayed.failed_at == std::string::npos);
    CHECK(replayed.match->game().state_json().dump() == g.state_json().dump());
  }
  CHECK(reasons.count("25_points"));
  CHECK(reasons.count("lead_20"));
  CHECK(reasons.count("20_in_turn"));
  CHECK(reasons.count("stalled"));
  CHECK(steps_total > kGames);
}

TEST_CASE("Properties: illegal actions are refused by Match::act with the state unchanged",
          "[tanbo][properties]") {
  const std::vector<Json> malformed = {
      nullptr,
      42,
      "sow",
      Json::object(),
      Json::array(),
      {{"sow", "purple"}},
      {{"sow", 1}},
      {{"sow", "snake"}, {"extra", 1}},
      {{"farmer", 7}},
      {{"farmer", -1}},
      {{"harvest", {{"yellow", -1}, {"black", 0}, {"red", 0}}}},
      {{"harvest", {{"yellow", 1}}}},
      {{"return", {{"yellow", 99}, {"black", 0}, {"red", 0}}}},
      {{"swap", Json::array()}},
      {{"swap",
        Json::array({{{"paddy", 0}, {"token", "snake"}}, {{"paddy", 0}, {"token", "snake"}}})}},
      {{"trim", {{"paddy", 9}, {"snakes", 1}, {"yellow", 0}, {"black", 0}, {"red", 0}}}},
  };
  std::vector<Json> seen;  // actions legal at some other moment
  core::FastRng pick(12345);
  int refused = 0;
  for (int n = 0; n < 100; ++n) {
    core::Record head;
    head.game = "tanbo";
    head.options = options_for(n);
    head.seed = core::seed_from_text("tanbo-illegal:" + std::to_string(n));
    core::Problems problems;
    auto match = core::Match::start(head, problems);
    REQUIRE(match);
    for (int step = 0; step < 100000 && match->game().status() != core::Status::finished; ++step) {
      const Json& legal = match->legal_json();
      REQUIRE(legal.size() > 1);  // R4: Match has applied every forced decision
      const core::Seat seat = match->game().pending().seat;
      if (step % 3 == 0) {
        const std::string before = match->game().state_json().dump();
        const std::size_t logged = match->record().actions.size();
        Json wrong = pick.below(2) || seen.empty()
                         ? malformed[pick.below(std::uint32_t(malformed.size()))]
                         : seen[pick.below(std::uint32_t(seen.size()))];
        core::Seat who = seat;
        if (std::find(legal.begin(), legal.end(), wrong) != legal.end()) who = 1 - seat;
        INFO("refusing " << wrong.dump() << " from seat " << who);
        const auto refusal = match->act(who, wrong);
        REQUIRE(refusal);
        CHECK(refusal->code == (who == seat ? tanbo_server::engine::RefusalCode::illegal_action
                                            : tanbo_server::engine::RefusalCode::not_your_turn));
        REQUIRE(match->game().state_json().dump() == before);
        REQUIRE(match->record().actions.size() == logged);
        ++refused;
      }
      const Json choice = legal[pick.below(std::uint32_t(legal.size()))];
      if (seen.size() < 4096) seen.push_back(choice);
      REQUIRE_FALSE(match->act(seat, choice));
    }
    REQUIRE(match->game().status() == core::Status::finished);
    const auto late = match->act(0, seen.front());
    REQUIRE(late);
    CHECK(late->code == tanbo_server::engine::RefusalCode::game_over);
  }
  CHECK(refused > 500);
}
