#pragma once
// A finished game's record, as the server serves it, against what its players saw: the record
// verifies (seed against commitment), replays through the engine without a refusal, and ends with
// the result and seed of the final state.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/cli/verify.hpp"
#include "engine/core/match.hpp"

namespace tanbo_server::server::test {

inline void check_replays_to(const nlohmann::json& record, const nlohmann::json& final_state) {
  auto verdict = tanbo_server::engine::verify_record(record);
  CHECK(verdict.mismatch == "");
  CHECK(verdict.verified);
  std::string error;
  auto parsed = tanbo_server::engine::Record::from_json(record, error);
  REQUIRE(parsed);
  auto replay = tanbo_server::engine::replay(*parsed);
  REQUIRE(replay.match);
  REQUIRE_FALSE(replay.refusal);
  const auto& result = replay.match->game().result();
  CHECK(final_state.at("result").at("places") == nlohmann::json(result.places));
  CHECK(final_state.at("result").at("reason") == result.reason);
  CHECK(final_state.at("seed") == record.at("seed"));
}

}  // namespace tanbo_server::server::test
