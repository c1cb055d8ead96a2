#include <catch2/catch.hpp>

#include "engine/cli/verify.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"

using namespace tanbo_server::engine;

namespace {

// A finished game's record as the server publishes it: actions with their events, the seed, the
// commitment and the result.
Json published_record(const std::string& game, std::string_view seed_text) {
  Record head;
  head.game = game;
  head.seed = seed_from_text(seed_text);
  Problems problems;
  auto m = Match::start(head, problems);
  REQUIRE(m);
  FastRng pick(11);
  Json actions = Json::array();
  while (m->game().status() != Status::finished) {
    Seat seat = m->game().pending().seat;
    Json action = m->legal_json()[pick.below(std::uint32_t(m->legal_json().size()))];
    REQUIRE_FALSE(m->act(seat, action));
    actions.push_back({{"seat", seat}, {"action", action}, {"events", m->events().json()}});
  }
  Json j = m->record().to_json();
  j["actions"] = actions;
  j["commit"] = seed_commitment(head.seed);
  j["result"] = {{"places", m->game().result().places}, {"reason", m->game().result().reason}};
  return j;
}

}  // namespace

TEST_CASE("verify: a genuine record is verified, for every game", "[cli][verify][fairness]") {
  for (const GameInfo* g : all_games()) {
    CAPTURE(g->id);
    Verdict v = verify_record(published_record(g->id, "genuine"));
    CHECK(v.mismatch == "");
    CHECK(v.verified);
  }
}

TEST_CASE("verify: any alteration is caught and named", "[cli][verify][fairness]") {
  const Json genuine = published_record("tanbo", "altered");
  REQUIRE(verify_record(genuine).verified);

  SECTION("a seed that does not match the commitment") {
    Json j = genuine;
    j["commit"] = seed_commitment(seed_from_text("other"));
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind("commit:", 0) == 0);
  }
  SECTION("one recorded event (a draw) altered") {
    Json j = genuine;
    // The first action whose events include a rice drawn from the bag.
    std::size_t where = 0, k = 0;
    bool found = false;
    for (std::size_t i = 0; i < j["actions"].size() && !found; ++i)
      for (std::size_t e = 0; e < j["actions"][i]["events"].size() && !found; ++e)
        if (j["actions"][i]["events"][e].dump().find("draw") != std::string::npos)
          where = i, k = e, found = true;
    REQUIRE(found);
    j["actions"][where]["events"][k]["altered"] = true;
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind(
              "actions[" + std::to_string(where) + "].events[" + std::to_string(k) + "]", 0) == 0);
  }
  SECTION("one action altered") {
    Json j = genuine;
    j["actions"][1]["action"] = Json{{"not", "legal"}};
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind("actions[1]: refused (illegal_action)", 0) == 0);
  }
  SECTION("a different result") {
    Json j = genuine;
    j["result"]["reason"] = "stalled_differently";
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind("result:", 0) == 0);
  }
  SECTION("a record without its seed") {
    Json j = genuine;
    j.erase("seed");
    CHECK_FALSE(verify_record(j).verified);
  }
}

TEST_CASE("verify: a malformed result or events list is a mismatch, not a crash",
          "[cli][verify][fuzz]") {
  const Json genuine = published_record("tsoro", "malformed");
  REQUIRE(verify_record(genuine).verified);

  SECTION("a result without places (found by fuzz_record: an assertion in a const lookup)") {
    Json j = genuine;
    j["result"].erase("places");
    j["result"]["place("] = Json::array({1, 2});
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind("result: recorded {", 0) == 0);
  }
  SECTION("a result without its reason") {
    Json j = genuine;
    j["result"].erase("reason");
    CHECK(verify_record(j).mismatch.rfind("result:", 0) == 0);
  }
  for (Json events : {Json{{"type", "action"}}, Json(5), Json("sow")}) {
    CAPTURE(events);
    Json j = genuine;
    j["actions"][0]["events"] = events;
    Verdict v = verify_record(j);
    CHECK_FALSE(v.verified);
    CHECK(v.mismatch.rfind("actions[0].events: recorded ", 0) == 0);
  }
}
