// The official JSON-Schema-Test-Suite (Debian's json-schema-test-suite, draft 7 its newest) run
// against SchemaSet for every keyword SchemaSet::keywords() claims. Cases that need what the
// validator does not claim, or where draft 7 and 2020-12 (the dialect of protocol/schema) differ,
// are listed in kExcluded with their reason; every other case must load and every test must match.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tests/support/schema.hpp"

using tanbo_server::protocol::SchemaSet;
using Json = tanbo_server::engine::Json;
namespace fs = std::filesystem;

namespace {

const std::string kSuite = TANBO_SCHEMA_SUITE_DIR;
const std::string kDraft = kSuite + "/tests/draft7";
// The suite's remote references point to this server, whose files are the suite's remotes/.
const std::string kRemoteBase = "http://localhost:1234/";

constexpr const char* kUnclaimed =
    "uses patternProperties, a keyword this validator does not claim: loading refuses it";
constexpr const char* kPrefixItems =
    "an array for items is draft 7; 2020-12 calls that prefixItems (not claimed) and items takes "
    "one schema: loading refuses it";
constexpr const char* kRefSiblings =
    "draft 7 ignores the keywords beside $ref; 2020-12 applies them";
constexpr const char* kById =
    "this validator resolves $ref by file name and JSON pointer only, not by $id";
constexpr const char* kNotKeywords =
    "keeps subschemas under keys that are no keyword, which loading refuses (schema_test.cpp "
    "checks the ~0, ~1 and %25 escapes under $defs)";
constexpr const char* kSubSchemas =
    "needs remotes/subSchemas.json, which keeps its schemas under keys that are no keyword: "
    "loading refuses it";
constexpr const char* kMetaSchema =
    "refers to the draft 7 meta-schema, which the suite does not ship and which uses keywords "
    "this validator does not claim";

struct Exclusion {
  const char* file;
  const char* description;  // of the suite case
  const char* reason;
  bool refused;  // loading refuses the case's own schema
};

const Exclusion kExcluded[] = {
    {"properties.json", "properties, patternProperties, additionalProperties interaction",
     kUnclaimed, true},
    {"additionalProperties.json",
     "additionalProperties being false does not allow other properties", kUnclaimed, true},
    {"additionalProperties.json", "non-ASCII pattern with additionalProperties", kUnclaimed, true},
    {"items.json", "an array of schemas for items", kPrefixItems, true},
    {"items.json", "items with boolean schemas", kPrefixItems, true},
    {"ref.json", "relative pointer ref to array", kPrefixItems, true},
    {"ref.json", "escaped pointer ref", kNotKeywords, true},
    {"ref.json", "ref overrides any sibling keywords", kRefSiblings, false},
    {"ref.json", "remote ref, containing refs itself", kMetaSchema, false},
    {"ref.json", "Recursive references between schemas", kById, false},
    {"refRemote.json", "fragment within remote ref", kSubSchemas, false},
    {"refRemote.json", "ref within remote ref", kSubSchemas, false},
    {"refRemote.json", "base URI change", kById, false},
    {"refRemote.json", "base URI change - change folder", kById, false},
    {"refRemote.json", "base URI change - change folder in subschema", kById, false},
    {"refRemote.json", "root ref in remote ref", kById, false},
};

// Remote documents loading refuses, by their path under remotes/.
const std::set<std::string> kRefusedRemotes = {"subSchemas.json"};

Json read_json(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str(), nullptr, false);
}

// The suite files of a claimed keyword.
std::vector<std::string> suite_files(std::string_view keyword) {
  if (keyword == "$ref") return {"ref.json", "refRemote.json"};
  return {std::string(keyword) + ".json"};
}

// Every document of remotes/, named by its URL, and whether loading accepts it alone.
std::map<std::string, std::pair<Json, bool>> remotes() {
  std::map<std::string, std::pair<Json, bool>> out;
  std::error_code ec;
  for (const auto& e : fs::recursive_directory_iterator(kSuite + "/remotes", ec)) {
    if (!e.is_regular_file() || e.path().extension() != ".json") continue;
    std::string rel = fs::relative(e.path(), kSuite + "/remotes").generic_string();
    Json j = read_json(e.path());
    SchemaSet alone;
    std::vector<std::string> problems;
    bool ok = !j.is_discarded() && alone.add(kRemoteBase + rel, j, problems);
    out[rel] = {std::move(j), ok};
  }
  return out;
}

std::string lines(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& l : v) s += "\n  " + l;
  return s;
}

}  // namespace

TEST_CASE("the suite's remote documents load, except those listed as refused",
          "[protocol][schema][suite]") {
  if (!fs::is_directory(kSuite + "/remotes"))
    FAIL(kSuite + "/remotes"
         << " is missing: install json-schema-test-suite (tools/install-deps.sh --test)");
  auto all = remotes();
  REQUIRE(!all.empty());
  for (const auto& [rel, doc] : all) {
    INFO("remotes/" << rel);
    CHECK(doc.second == !kRefusedRemotes.count(rel));
  }
  for (const auto& rel : kRefusedRemotes) CHECK(all.count(rel));
}

TEST_CASE("the validator passes the JSON-Schema-Test-Suite (draft 7) for every keyword it claims",
          "[protocol][schema][suite]") {
  if (!fs::is_directory(kDraft))
    FAIL(kDraft << " is missing: install json-schema-test-suite (tools/install-deps.sh --test)");
  auto docs = remotes();
  REQUIRE(!docs.empty());
  std::set<const Exclusion*> used;
  int tests_run = 0;
  REQUIRE(!SchemaSet::keywords().empty());
  for (auto keyword : SchemaSet::keywords()) {
    for (const auto& file : suite_files(keyword)) {
      Json cases = read_json(kDraft + "/" + file);
      INFO(file);
      REQUIRE(cases.is_array());
      REQUIRE(!cases.empty());
      for (const auto& c : cases) {
        std::string description = c.at("description").get<std::string>();
        INFO("case: " << description);
        const Exclusion* excluded = nullptr;
        for (const auto& x : kExcluded)
          if (file == x.file && description == x.description) excluded = &x;

        SchemaSet set;
        std::vector<std::string> problems;
        for (const auto& [rel, doc] : docs)
          if (doc.second) REQUIRE(set.add(kRemoteBase + rel, doc.first, problems));
        bool loaded = set.add("case.json", c.at("schema"), problems);
        bool resolved = loaded && set.check_refs(problems);
        INFO("loading: " << (problems.empty() ? "no problem" : lines(problems)));

        int mismatches = 0;
        for (const auto& t : c.at("tests")) {
          bool expected = t.at("valid").get<bool>();
          auto violations = resolved ? set.validate("case.json", t.at("data"))
                                     : std::vector<std::string>{"not loaded"};
          bool valid = violations.empty();
          mismatches += valid != expected;
          if (excluded) continue;
          ++tests_run;
          INFO("test: " << t.at("description").get<std::string>() << "\ndata: "
                        << t.at("data").dump() << "\nviolations:" << lines(violations));
          CHECK(valid == expected);
        }
        if (excluded) {
          used.insert(excluded);
          INFO("excluded: " << excluded->reason);
          // An exclusion that is no longer needed must leave the list.
          CHECK_FALSE((resolved && mismatches == 0));
          if (excluded->refused) CHECK_FALSE(loaded);
        } else {
          CHECK(resolved);
        }
      }
    }
  }
  for (const auto& x : kExcluded) {
    INFO("excluded case not in the suite: " << x.file << ": " << x.description);
    CHECK(used.count(&x));
  }
  CHECK(tests_run > 0);
}
