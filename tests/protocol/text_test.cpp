// protocol/text.hpp: the name rule, one table for every case docs/protocol.md ("Names") names.
#include <catch2/catch.hpp>

#include "protocol/client.hpp"
#include "protocol/text.hpp"

using namespace tanbo::protocol;

TEST_CASE("names: letters, digits, spaces and the punctuation of names, 1 to 24 after NFC",
          "[protocol][names]") {
  auto [name, ok] = GENERATE(table<std::string, bool>({
      {"a", true},
      {"Guest 1234", true},
      {"x_y-z.w", true},
      {"O'Brien", true},
      {"D'Artagnan", true},
      {"N\u2019Diaye", true},                                      // the typographic apostrophe
      {"Jean-Fran\u00E7ois", true},                                // Jean-François
      {"Paul\u00B7la", true},                                      // the Catalan middle dot
      {"\u00C9lo\u00EFse", true},                                  // Éloïse
      {"\u3055\u304F\u3089", true},                                // さくら
      {"\u30DF\u30E5\u30FC\u30E9\u30FC\u30FB\u30E1\u30A4", true},  // ミューラー・メイ
      {"\u674E\u5C0F\u9F8D", true},                                // 李小龍
      {"\u0414\u043C\u0438\u0442\u0440\u0438\u0439", true},        // Дмитрий
      {"\u0905\u0928\u093F\u0932", true},  // अनिल: a vowel sign after its letter
      {"R2D2", true},
      {std::string(24, 'a'), true},
      {"aaaaaaaa\u00E9\u00E9\u00E9\u00E9\u00E9\u00E9\u00E9\u00E9\u00E9bbbbbbb",
       true},  // 24, 33 bytes
      {"", false},
      {std::string(25, 'a'), false},
      {" lead", false},
      {"trail ", false},
      {"two  spaces", false},
      {"'--.", false},  // no letter nor digit
      {"semi;colon", false},
      {"tab\tname", false},
      {"new\nline", false},
      {"<script>", false},
      {"emoji \U0001F600", false},
      {"zero\u200Bwidth", false},    // an invisible space
      {"joi\u200Dner", false},       // zero-width joiner: a format character
      {"rtl\u202Eoverride", false},  // a direction override
      {"nb\u00A0space", false},      // a no-break space is not a space here
      {"\u0301accent", false},       // a mark with no letter before it
      {"bad \xC3", false},           // truncated UTF-8
      {"over \xC0\xAF", false},      // overlong '/'
      {"surr \xED\xA0\x80", false},  // a UTF-16 surrogate
  }));
  CAPTURE(name);
  auto check = check_name(name);
  CHECK(check.ok() == ok);
  if (!ok) CHECK_FALSE(check.problem.empty());
}

TEST_CASE("names are kept in NFC: a decomposed name counts and compares as composed",
          "[protocol][names]") {
  const std::string decomposed = "E\u0301loi\u0308se";  // É and ï as letter + mark
  auto check = check_name(decomposed);
  REQUIRE(check.ok());
  CHECK(check.name == "\u00C9lo\u00EFse");
  CHECK(code_points(check.name) == 6);
  SECTION("24 letters with their marks decomposed are 24 characters, not 48") {
    std::string long_decomposed;
    for (int i = 0; i < 24; ++i) long_decomposed += "e\u0301";
    auto c = check_name(long_decomposed);
    CHECK(c.ok());
    CHECK(code_points(c.name) == 24);
  }
}

TEST_CASE("hello refuses a bad name with bad_name, naming the rule, and keeps a good one in NFC",
          "[protocol][names]") {
  auto bad = parse(R"({"type":"hello","id":1,"name":"<b>"})");
  REQUIRE(std::holds_alternative<Error>(bad));
  CHECK(std::get<Error>(bad).code == ErrorCode::bad_name);
  CHECK(std::get<Error>(bad).re == Id{std::int64_t(1)});
  CHECK_THAT(std::get<Error>(bad).message, Catch::Contains("1 to 24"));
  auto good = parse("{\"type\":\"hello\",\"name\":\"E\u0301loi\u0308se\"}");
  REQUIRE(std::holds_alternative<Request>(good));
  CHECK(std::get<Hello>(std::get<Request>(good).message).name == "\u00C9lo\u00EFse");
}
