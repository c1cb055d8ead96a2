#include "protocol/json_read.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>

#include "tests/protocol/same_json.hpp"

using Json = nlohmann::json;
using tanbo_server::protocol::json_read::read_plain;
using tanbo_server::protocol::test::same_json;

namespace {

// What read_plain may never do: accept a text nlohmann reads otherwise, or not at all.
void check_agrees(const std::string& text) {
  Json fast;
  if (!read_plain(text, fast)) return;
  Json slow = Json::parse(text, nullptr, false);
  INFO(text);
  REQUIRE_FALSE(slow.is_discarded());
  REQUIRE(same_json(fast, slow));
}

// A tree mostly in the plain subset: strings of printable ASCII with now and then a quote or a
// backslash (escaped in the text, so declined), integers of every size, now and then a float.
Json plain_tree(std::mt19937_64& gen, int depth) {
  auto pick = [&](std::uint64_t n) { return gen() % n; };
  auto text = [&] {
    std::string s(pick(10), '\0');
    for (auto& c : s) c = char(0x20 + pick(0x60));
    return s;
  };
  switch (pick(depth > 0 ? 10 : 8)) {
    case 0:
      return nullptr;
    case 1:
      return pick(2) == 0;
    case 2:
      return std::int64_t(gen()) >> pick(64);
    case 3:
      return std::uint64_t(gen()) >> pick(64);
    case 4:
      return pick(8) == 0 ? Json(double(pick(1000)) / 8) : Json(pick(10));
    case 5:
    case 6:
    case 7:
      return text();
    case 8: {
      Json a = Json::array();
      for (auto n = pick(5); n > 0; --n) a.push_back(plain_tree(gen, depth - 1));
      return a;
    }
    default: {
      Json o = Json::object();
      for (auto n = pick(5); n > 0; --n) o[text()] = plain_tree(gen, depth - 1);
      return o;
    }
  }
}

bool in_subset(const Json& j) {
  if (j.is_number_float()) return false;
  if (j.is_string())
    return j.get_ref<const std::string&>().find_first_of("\"\\") == std::string::npos;
  for (auto i = j.begin(); j.is_structured() && i != j.end(); ++i)
    if ((j.is_object() && !in_subset(i.key())) || !in_subset(i.value())) return false;
  return true;
}

// A compact text with JSON's whitespace put at random between its tokens.
std::string spaced(const std::string& compact, std::mt19937_64& gen) {
  static constexpr char kSpace[] = {' ', '\n', '\r', '\t'};
  std::string out;
  bool in_string = false, escaped = false;
  for (char c : compact) {
    // Before a structural byte or a string, never inside a number or a literal.
    if (!in_string && std::string_view("{}[],:\"").find(c) != std::string_view::npos &&
        gen() % 3 == 0)
      out += kSpace[gen() % 4];
    out += c;
    if (!in_string)
      in_string = c == '"';
    else if (escaped)
      escaped = false;
    else if (c == '\\')
      escaped = true;
    else if (c == '"')
      in_string = false;
  }
  return out;
}

}  // namespace

TEST_CASE("read_plain reads the plain subset as nlohmann does, number types included",
          "[protocol][json_read]") {
  const std::string texts[] = {
      R"({"type":"act","id":4,"room":"r-8f3a","version":1,"action":{"hole":2}})",
      " {\n\t\"type\" : \"act\" ,\r\n \"action\" : [ 1 , -2 , { } , [ ] ] } \n",
      "{}",
      "[]",
      "0",
      "-0",
      "7",
      "-7",
      "18446744073709551615",
      "9223372036854775807",
      "9223372036854775808",
      "-9223372036854775808",
      "true",
      "false",
      "null",
      R"("")",
      "\"every printable byte: !#$%&'()*+,-./09:;<=>?@AZ[]^_`az{|}~\x7f\"",
      R"({"":null,"b":[true,false,null],"a":{"c":""}})",
      std::string(64, '[') + std::string(64, ']'),
  };
  for (const auto& text : texts) {
    INFO(text);
    Json fast;
    REQUIRE(read_plain(text, fast));
    REQUIRE(same_json(fast, Json::parse(text)));
  }
  Json j;
  REQUIRE(read_plain("-0", j));
  CHECK(j.is_number_integer());
  CHECK_FALSE(j.is_number_unsigned());  // nlohmann reads "-0" signed, "0" unsigned
  REQUIRE(read_plain("0", j));
  CHECK(j.is_number_unsigned());
}

TEST_CASE("read_plain declines every text outside the subset", "[protocol][json_read]") {
  const std::string deep = std::string(65, '[') + std::string(65, ']');
  const std::string texts[] = {
      // valid JSON that nlohmann reads: escapes, bytes past ASCII, floats, big numbers, a BOM,
      // a repeated key, deep nesting
      R"("a\nb")", R"("\u0041")", "\"caf\xc3\xa9\"", "1.5", "1e3", "-1E-3", "0.0",
      "18446744073709551616", "-9223372036854775809", "99999999999999999999999", "\xef\xbb\xbf{}",
      R"({"a":1,"a":2})", deep,
      // not JSON at all
      "", " ", "tru", "nul", "falsey", "-", "01", "-01", "+1", ".5", "[1,]", "[,1]", "{\"a\":1,}",
      R"({"a" 1})", R"({a:1})", R"({1:2})", "[1 2]", R"({"a":1}x)", "{}{}", "[", "]", "{", "\"ab",
      "\"a\x01b\"", "\"\x80\"", "nan", "[01]", "{\"a\":-}"};
  for (const auto& text : texts) {
    INFO(text);
    Json j;
    CHECK_FALSE(read_plain(text, j));
  }
}

TEST_CASE("read gives what nlohmann gives, inside the plain subset and outside it",
          "[protocol][json_read]") {
  for (const char* text : {R"({"type":"act","version":3})", R"("a\nb")", "1.5", "\"caf\xc3\xa9\"",
                           R"({"a":1,"a":2})"}) {
    INFO(text);
    CHECK(same_json(tanbo_server::protocol::json_read::read(text), Json::parse(text)));
  }
  for (const char* text : {"", "[1,]", "\"\x80\"", "{}{}"}) {
    INFO(text);
    CHECK(tanbo_server::protocol::json_read::read(text).is_discarded());
  }
}

TEST_CASE("read_plain agrees with nlohmann on random trees and on their texts broken",
          "[protocol][json_read]") {
  std::mt19937_64 gen(20261205);
  int read = 0;
  for (int i = 0; i < 3000; ++i) {
    Json tree = plain_tree(gen, 4);
    std::string text = spaced(tree.dump(), gen);
    INFO(text);
    Json fast;
    bool ok = read_plain(text, fast);
    REQUIRE(ok == in_subset(tree));  // every tree of the subset is read, and only those
    // The tree may hold a positive number as signed; its text reads back unsigned, as here.
    if (ok) REQUIRE((fast == tree && same_json(fast, Json::parse(text))));
    read += ok;
    // One byte changed, dropped or doubled: read as nlohmann reads it, or declined.
    for (int k = 0; k < 4 && !text.empty(); ++k) {
      std::string broken = text;
      std::size_t at = gen() % broken.size();
      switch (gen() % 3) {
        case 0:
          broken[at] = "{}[]\":,-0123456789 tfnx\\"[gen() % 25];
          break;
        case 1:
          broken.erase(at, 1);
          break;
        default:
          broken.insert(at, 1, broken[at]);
      }
      check_agrees(broken);
    }
  }
  CHECK(read > 1000);  // the generator does reach the subset
}
