#include <catch2/catch.hpp>

#include "engine/core/options.hpp"

using namespace tanbo_server::engine;

namespace {

std::vector<OptionSpec> specs() {
  return {
      {"size", OptionSpec::Kind::integer, 6, {4, 6, 7}, 0, 0, "holes"},
      {"stall", OptionSpec::Kind::integer, 60, {}, 1, 1000, "rounds"},
      {"cascade", OptionSpec::Kind::boolean, true, {}, 0, 0, "cascade"},
      {"heads", OptionSpec::Kind::choice, "two", {"two", "one", "none"}, 0, 0, "heads"},
  };
}

}  // namespace

TEST_CASE("Options: defaults fill every option left out", "[core][options]") {
  Problems problems;
  Json out = validate_options(specs(), Json::object({{"heads", "one"}}), problems);
  CHECK(problems.empty());
  CHECK(out == Json{{"size", 6}, {"stall", 60}, {"cascade", true}, {"heads", "one"}});
  CHECK(validate_options(specs(), nullptr, problems) ==
        Json{{"size", 6}, {"stall", 60}, {"cascade", true}, {"heads", "two"}});
}

TEST_CASE("Options: every bad option is named, each with what was expected", "[core][options]") {
  Problems problems;
  validate_options(specs(),
                   Json{{"size", 5}, {"stall", 0}, {"cascade", "yes"}, {"heads", 2}, {"colour", 1}},
                   problems);
  REQUIRE(problems.size() == 5);
  std::vector<std::string> fields;
  for (auto& p : problems) fields.push_back(p.field);
  std::sort(fields.begin(), fields.end());
  CHECK(fields == std::vector<std::string>{"cascade", "colour", "heads", "size", "stall"});
  for (auto& p : problems) {
    CAPTURE(p.field, p.message);
    if (p.field == "size") CHECK(p.message == "got 5, expected one of 4, 6, 7");
    if (p.field == "stall") CHECK(p.message == "got 0, expected 1 to 1000");
    if (p.field == "cascade") CHECK(p.message == "got \"yes\", expected true or false");
    if (p.field == "colour") CHECK(p.message == "unknown option");
  }
}

TEST_CASE("Options: a non-object is refused and a float is not an integer", "[core][options]") {
  Problems problems;
  validate_options(specs(), Json::array(), problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].field == "options");
  problems.clear();
  validate_options(specs(), Json{{"stall", 6.5}}, problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].field == "stall");
}

TEST_CASE("Options: the registry form names type, default and allowed values", "[core][options]") {
  auto s = specs();
  CHECK(s[0].to_json() == Json{{"name", "size"},
                               {"type", "integer"},
                               {"default", 6},
                               {"allowed", {4, 6, 7}},
                               {"help", "holes"}});
  CHECK(s[1].to_json()["min"] == 1);
  CHECK(s[2].to_json()["type"] == "boolean");
  CHECK(s[3].to_json()["allowed"] == Json{"two", "one", "none"});
}
