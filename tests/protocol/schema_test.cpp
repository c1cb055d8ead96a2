#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "engine/core/registry.hpp"
#include "protocol/client.hpp"
#include "protocol/errors.hpp"
#include "protocol/server.hpp"
#include "support.hpp"

using namespace tanbo_server::protocol;
using tanbo_server::protocol::test::schemas;
using Json = tanbo_server::engine::Json;

TEST_CASE("every schema file loads, with only supported keywords and resolvable refs",
          "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  bool ok = set.load_dir(TANBO_PROTOCOL_SCHEMA_DIR, problems);
  for (const auto& p : problems) UNSCOPED_INFO(p);
  REQUIRE(ok);
  SECTION("one schema per client and per server message and per catalogue game, and common.json") {
    for (auto t : client_types()) CHECK(set.has("client-" + std::string(t) + ".json"));
    for (auto t : server_types()) CHECK(set.has("server-" + std::string(t) + ".json"));
    const auto games = tanbo_server::engine::all_games();
    for (const auto* g : games) CHECK(set.has("game-" + g->id + ".json"));
    CHECK(set.has("common.json"));
    CHECK(set.names().size() == client_types().size() + server_types().size() + games.size() + 1);
  }
  SECTION("common.json's known games are the catalogue's") {
    std::ifstream in(std::string(TANBO_PROTOCOL_SCHEMA_DIR) + "/common.json");
    Json known = Json::array();
    for (const auto* g : tanbo_server::engine::all_games()) known.push_back(g->id);
    CHECK(Json::parse(in)["$defs"]["known_game"]["enum"] == known);
  }
  SECTION("the error schema lists exactly the error codes") {
    Json codes = Json::array();
    for (const auto& e : kErrors) codes.push_back(e.name);
    std::ifstream in(std::string(TANBO_PROTOCOL_SCHEMA_DIR) + "/server-error.json");
    Json file = Json::parse(in);
    CHECK(file["properties"]["code"]["enum"] == codes);
  }
}

TEST_CASE("the validator refuses schemas beyond its subset", "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  SECTION("an unknown keyword") {
    CHECK_FALSE(set.add("a.json", Json{{"pattern", "^x$"}}, problems));
  }
  SECTION("an unknown type name") {
    CHECK_FALSE(set.add("a.json", Json{{"type", "int"}}, problems));
  }
  SECTION("a keyword nested in properties") {
    CHECK_FALSE(
        set.add("a.json", Json::parse(R"({"properties":{"x":{"format":"uri"}}})"), problems));
  }
  SECTION("a dangling $ref") {
    REQUIRE(set.add("a.json", Json::parse(R"({"$ref":"#/$defs/missing"})"), problems));
    CHECK_FALSE(set.check_refs(problems));
  }
  CHECK_FALSE(problems.empty());
}

TEST_CASE("each supported keyword can fail a value", "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  REQUIRE(set.add("t.json", Json::parse(R"({
    "$defs": {"small": {"type": "integer", "minimum": 0, "maximum": 9}},
    "type": "object",
    "required": ["n"],
    "additionalProperties": false,
    "properties": {
      "n": {"$ref": "#/$defs/small"},
      "s": {"type": "string", "minLength": 2, "maxLength": 3},
      "e": {"enum": ["a", 1]},
      "c": {"const": true},
      "l": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "boolean"}},
      "u": {"type": "array", "uniqueItems": true},
      "o": {"oneOf": [{"type": "integer"}, {"type": "number"}]},
      "a": {"anyOf": [{"type": "null"}, {"type": "string"}]},
      "m": {"type": ["string", "null"]},
      "x": {"type": "string", "not": {"enum": ["no", "never"]}}
    }})"),
                  problems));
  auto valid = [&](const char* text) { return set.validate("t.json", Json::parse(text)).empty(); };
  CHECK(valid(R"({"n":3,"s":"ab","e":1,"c":true,"l":[false],"o":1.5,"a":null,"m":"x"})"));
  CHECK_FALSE(valid(R"({})"));                               // required
  CHECK_FALSE(valid(R"({"n":3,"z":0})"));                    // additionalProperties
  CHECK_FALSE(valid(R"({"n":"3"})"));                        // type via $ref
  CHECK_FALSE(valid(R"({"n":-1})"));                         // minimum
  CHECK_FALSE(valid(R"({"n":10})"));                         // maximum
  CHECK_FALSE(valid(R"({"n":1,"s":"a"})"));                  // minLength
  CHECK_FALSE(valid(R"({"n":1,"s":"abcd"})"));               // maxLength
  CHECK(valid(R"({"n":1,"s":"ééé"})"));                      // lengths count characters, not bytes
  CHECK_FALSE(valid(R"({"n":1,"e":"b"})"));                  // enum
  CHECK_FALSE(valid(R"({"n":1,"c":false})"));                // const
  CHECK_FALSE(valid(R"({"n":1,"l":[]})"));                   // minItems
  CHECK_FALSE(valid(R"({"n":1,"l":[true,true,true]})"));     // maxItems
  CHECK_FALSE(valid(R"({"n":1,"l":[1]})"));                  // items
  CHECK(valid(R"({"n":1,"u":[1,"1",[1],{"a":1}]})"));        // uniqueItems: no two equal
  CHECK_FALSE(valid(R"({"n":1,"u":[0,{"a":1},{"a":1}]})"));  // uniqueItems
  CHECK_FALSE(valid(R"({"n":1,"o":2})"));                    // oneOf: both branches match
  CHECK_FALSE(valid(R"({"n":1,"o":"2"})"));                  // oneOf: none matches
  CHECK_FALSE(valid(R"({"n":1,"a":3})"));                    // anyOf
  CHECK_FALSE(valid(R"({"n":1,"m":3})"));                    // type list
  CHECK(valid(R"({"n":1,"x":"yes"})"));                      // not: its schema fails
  CHECK_FALSE(valid(R"({"n":1,"x":"never"})"));              // not
  SECTION("violations name where they are") {
    auto v = set.validate("t.json", Json::parse(R"({"n":1,"l":[true,2]})"));
    REQUIRE(v.size() == 1);
    CHECK_THAT(v[0], Catch::StartsWith("/l/1:"));
  }
}

TEST_CASE("$ref reads its pointer as a URI fragment, or takes a whole file", "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  REQUIRE(set.add("null.json", Json::parse(R"({"type":"null"})"), problems));
  REQUIRE(set.add("t.json", Json::parse(R"({
    "$defs": {"a~b": {"type": "integer"}, "c/d": {"type": "string"}, "e%f": {"type": "boolean"}},
    "definitions": {"old": {"const": 1}},
    "properties": {
      "t": {"$ref": "#/$defs/a~0b"},
      "s": {"$ref": "#/$defs/c~1d"},
      "p": {"$ref": "#/$defs/e%25f"},
      "o": {"$ref": "#/definitions/old"},
      "n": {"$ref": "null.json"}
    }})"),
                  problems));
  REQUIRE(set.check_refs(problems));
  auto valid = [&](const char* text) { return set.validate("t.json", Json::parse(text)).empty(); };
  CHECK(valid(R"({"t":1,"s":"x","p":true,"o":1,"n":null})"));
  CHECK_FALSE(valid(R"({"t":"1"})"));
  CHECK_FALSE(valid(R"({"s":1})"));
  CHECK_FALSE(valid(R"({"p":1})"));
  CHECK_FALSE(valid(R"({"o":2})"));
  CHECK_FALSE(valid(R"({"n":0})"));
  SECTION("a malformed escape is refused at load") {
    CHECK_FALSE(set.add("bad.json", Json::parse(R"({"$ref":"#/$defs/%2"})"), problems));
  }
  SECTION("what a $ref points to must be a schema the validator supports") {
    REQUIRE(
        set.add("c.json", Json::parse(R"({"const":{"pattern":"x"},"$ref":"#/const"})"), problems));
    CHECK_FALSE(set.check_refs(problems));
  }
}

TEST_CASE("a $ref cycle ends instead of recursing forever", "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  REQUIRE(set.add("loop.json",
                  Json::parse(R"({"$defs":{"a":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"})"),
                  problems));
  CHECK_FALSE(set.validate("loop.json", 1).empty());
}

TEST_CASE("a document added after a validation is read, and so is a $ref that now resolves",
          "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  REQUIRE(set.add("a.json", Json::parse(R"({"$ref":"b.json"})"), problems));
  auto v = set.validate("a.json", 1);
  REQUIRE(v.size() == 1);
  CHECK(v[0] == "/: $ref b.json does not resolve");
  CHECK(set.validate("b.json", 1) == std::vector<std::string>{"no schema named b.json"});
  REQUIRE(set.add("b.json", Json::parse(R"({"type":"string"})"), problems));
  CHECK(set.validate("b.json", "x").empty());
  CHECK(set.validate("a.json", "x").empty());
  CHECK(set.validate("a.json", 1) ==
        std::vector<std::string>{"/: expected type \"string\", got number"});
  SECTION("a copy validates as the original") {
    SchemaSet copy = set;
    CHECK(copy.validate("a.json", "x").empty());
    CHECK_FALSE(copy.validate("a.json", 1).empty());
  }
}

TEST_CASE("every violation is named, each once, with where it is", "[protocol][schema]") {
  SchemaSet set;
  std::vector<std::string> problems;
  REQUIRE(set.add("t.json", Json::parse(R"({
    "type": "object", "required": ["a", "b"],
    "properties": {"l": {"type": "array", "items": {"oneOf": [{"type": "integer"}, {"minimum": 0}]}},
                   "s": {"anyOf": [{"const": 1}, {"const": 2}]}},
    "additionalProperties": {"type": "string", "maxLength": 2}})"),
                  problems));
  auto v = set.validate("t.json", Json::parse(R"({"l":[1,-1.5,2.5],"s":3,"x":"abc","y":4})"));
  std::sort(v.begin(), v.end());
  CHECK(v == std::vector<std::string>{"/: missing \"a\"", "/: missing \"b\"",
                                      "/l/0: matches 2 oneOf branches, not exactly 1",
                                      "/l/1: matches 0 oneOf branches, not exactly 1",
                                      "/s: matches no anyOf branch", "/x: longer than 2",
                                      "/y: expected type \"string\", got number"});
}

TEST_CASE("the client schemas accept exactly what parse accepts", "[protocol][schema]") {
  // Duplicate CPU seats are the one rule a schema cannot say (no uniqueItems on a member).
  auto frame = GENERATE(
      as<std::string>{}, R"({"type":"hello"})",
      R"({"type":"hello","token":"t","name":"Ana","x":1})", R"({"type":"hello","token":""})",
      R"({"type":"hello","name":"1234567890123456789012345"})",
      R"({"type":"hello","name":"éééééééééééééééééééééééé"})", R"({"type":"hello","name":3})",
      R"({"type":"rooms","game":null})", R"({"type":"rooms","game":5})",
      R"({"type":"create","game":"g"})", R"({"type":"create"})",
      R"({"type":"create","game":"g","options":[]})", R"({"type":"create","game":"g","seats":9})",
      R"({"type":"create","game":"g","seats":1})", R"({"type":"create","game":"g","timer":60})",
      R"({"type":"create","game":"g","timer":61})",
      R"({"type":"create","game":"g","timer":"none"})",
      R"({"type":"create","game":"g","timer":{"type":"clock","base_s":180,"increment_s":2}})",
      R"({"type":"create","game":"g","timer":{"type":"clock","base_s":29,"increment_s":2}})",
      R"({"type":"create","game":"g","timer":{"type":"clock","base_s":180,"increment_s":61}})",
      R"({"type":"create","game":"g","timer":{"type":"clock","base_s":180}})",
      R"({"type":"create","game":"g","timer":{"type":"correspondence","days":7}})",
      R"({"type":"create","game":"g","timer":{"type":"correspondence","days":4}})",
      R"({"type":"create","game":"g","timer":{"type":"per_decision","seconds":30}})",
      R"({"type":"my_games"})", R"({"type":"create","game":"g","ranked":"yes"})",
      R"({"type":"create","game":"g","cpu":[{"seat":7,"level":"greedy"}]})",
      R"({"type":"create","game":"g","cpu":[{"seat":7,"level":"best"}]})",
      R"({"type":"create","game":"g","cpu":[{"seat":1}]})",
      R"({"type":"create","game":"g","setup":[1]})",
      R"({"type":"join","room":"r","as":"player","seat":7})",
      R"({"type":"join","room":"r","as":"player","seat":8})", R"({"type":"join","room":"r"})",
      R"({"type":"act","room":"r","version":0,"action":[1]})",
      R"({"type":"act","room":"r","version":-1,"action":[1]})",
      R"({"type":"act","room":"r","version":2,"action":null})",
      R"({"type":"act","room":"r","version":2.5,"action":1})",
      R"({"type":"act","room":"r","version":18446744073709551615,"action":1})",
      R"({"type":"resign","room":"r","id":"x"})", R"({"type":"resign","room":"r","id":1.5})",
      R"({"type":"resign","room":"r","id":-9223372036854775808})",
      R"({"type":"resign","room":"r","id":9223372036854775808})", R"({"type":"resign","room":""})",
      R"({"type":"resume","room":"r","version":1})", R"({"type":"resume","room":"r"})",
      R"({"type":"ping","id":null})", R"({"type":"leave"})");
  CAPTURE(frame);
  Json j = Json::parse(frame);
  bool parsed = std::holds_alternative<Request>(parse(frame));
  auto problems = schemas().validate("client-" + j["type"].get<std::string>() + ".json", j);
  CHECK(parsed == problems.empty());
}

TEST_CASE("every example in docs/protocol.md is a valid message", "[protocol][schema][docs]") {
  std::ifstream in(std::string(TANBO_PROTOCOL_SCHEMA_DIR) + "/../../docs/protocol.md");
  REQUIRE(in);
  std::set<std::string> seen;
  std::string line, block, direction;
  std::optional<std::string> refused;  // the code the last client example is refused with
  int examples = 0;
  // The schemas say version 2. A connection whose hello named no version speaks version 1, whose
  // frames differ by the names docs/protocol-changelog.md lists: what it gets is not checked.
  std::set<std::string> old_version;
  std::string connection = "ana", last_sender = "ana";
  while (std::getline(in, line)) {
    if (direction.empty()) {
      // "```json client NAME", "```json server NAME [earlier]": NAME defaults as the docs test's.
      if (line == "```json client" || line.starts_with("```json client "))
        direction = "client";
      else if (line == "```json server" || line.starts_with("```json server "))
        direction = "server";
      else
        continue;
      std::istringstream words(line.substr(std::string("```json ").size() + direction.size()));
      std::string name;
      words >> name;
      connection =
          name.empty() || name == "earlier" ? (direction == "client" ? "ana" : last_sender) : name;
      if (direction == "client") last_sender = connection;
      continue;
    }
    if (line != "```") {
      block += line + "\n";
      continue;
    }
    CAPTURE(direction, connection, block);
    Json j = Json::parse(block, nullptr, false);
    REQUIRE_FALSE(j.is_discarded());
    std::string type = j.value("type", "");
    if (direction == "client" && type == "hello" && !j.contains("protocol"))
      old_version.insert(connection);
    if (direction == "server" && old_version.contains(connection)) {
      block.clear(), direction.clear();
      continue;
    }
    auto problems = schemas().validate(direction + "-" + type + ".json", j);
    for (const auto& p : problems) UNSCOPED_INFO(p);
    CHECK(problems.empty());
    // A client example parses, or the next example is the refusal it gets (a bad name, say).
    if (refused) {
      CHECK(direction == "server");
      CHECK(j.value("code", "") == *refused);
    }
    refused.reset();
    if (direction == "client") {
      auto parsed = parse(block);
      if (auto* e = std::get_if<Error>(&parsed)) refused = std::string(to_string(e->code));
    }
    seen.insert(direction + "-" + type);
    ++examples;
    block.clear(), direction.clear();
  }
  SECTION("every message type has an example") {
    for (auto t : client_types()) CHECK(seen.count("client-" + std::string(t)));
    for (auto t : server_types()) CHECK(seen.count("server-" + std::string(t)));
  }
}
