#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "protocol/errors.hpp"

using namespace tanbo_server::protocol;

TEST_CASE("error codes are stable strings that round-trip", "[protocol][errors]") {
  std::set<std::string_view> names;
  for (const auto& e : kErrors) {
    CAPTURE(e.name);
    CHECK(to_string(e.code) == e.name);
    CHECK(error_code_from(e.name) == e.code);
    CHECK_FALSE(e.meaning.empty());
    names.insert(e.name);
  }
  CHECK(names.size() == kErrors.size());
  CHECK_FALSE(error_code_from("no_such_code"));
  SECTION("every refusal of the engine is sent under its own name") {
    for (auto code : tanbo_server::engine::kRefusalCodes)
      CHECK(to_string(error_code(code)) == to_string(code));
  }
  SECTION("the codes the issue requires are all there") {
    for (auto code : {"bad_json", "bad_message", "unknown_type", "not_hello", "no_such_room",
                      "room_full", "not_seated", "not_your_turn", "stale_version", "illegal_action",
                      "bad_option", "rate_limited", "too_large"})
      CHECK(error_code_from(code));
  }
}

TEST_CASE("docs/protocol.md documents every error code", "[protocol][errors][docs]") {
  std::ifstream in(std::string(TANBO_PROTOCOL_SCHEMA_DIR) + "/../../docs/protocol.md");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  for (const auto& e : kErrors) {
    CAPTURE(e.name);
    CHECK_THAT(text.str(), Catch::Contains("| `" + std::string(e.name) + "` |"));
  }
}
