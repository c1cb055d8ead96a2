// protocol/text.hpp: the name rule, one table for every case docs/protocol.md ("Names") names.
#include <catch2/catch.hpp>

#include "protocol/client.hpp"
#include "protocol/text.hpp"

using namespace tanbo_server::protocol;

TEST_CASE("names: letters, digits, spaces and the punctuation of names, 1 to 24 after NFKC",
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
      {"nb\u2060space", false},      // a word joiner is not a space here
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

TEST_CASE("names drawn as nothing, or as a smear of marks, are refused", "[protocol][names]") {
  auto name = GENERATE(as<std::string>{},
                       "\u3164",  // a Hangul filler alone: a letter (Lo) drawn empty
                       "\u3164\u3164\u3164",
                       "\u115F",        // the choseong filler
                       "\u1160\u1160",  // the jungseong filler
                       "\uFFA0",        // the half-width filler
                       "Ana\u3164",     // a filler after a name: "Ana" to the eye
                       "\u115FAna",
                       "A\u00ADna",      // a soft hyphen
                       "An\u034Fa",      // the combining grapheme joiner, a mark drawn empty
                       "Ana\uFE0F",      // a variation selector
                       "Ana\U000E0041",  // a tag character
                       "x\u0301\u0302\u0303\u0304\u0305");  // five marks on one letter
  CAPTURE(name);
  auto check = check_name(name);
  CHECK_FALSE(check.ok());
  CHECK_FALSE(check.problem.empty());
  SECTION("24 stacked accents") {
    std::string stacked = "a";
    for (int i = 0; i < 24; ++i) stacked += "\u0301";
    auto c = check_name(stacked);
    CHECK_FALSE(c.ok());
    CHECK_THAT(c.problem, Catch::Contains("at most 4 marks"));
  }
}

TEST_CASE("real names of many scripts pass, their marks included", "[protocol][names]") {
  auto name =
      GENERATE(as<std::string>{},
               "Nguy\u1EC5n Th\u1ECB Minh Khai",     // Nguyễn Thị Minh Khai
               "Nguye\u0302\u0303n",                 // the same ễ decomposed: e + two marks
               "Tr\u1EA7n H\u01B0ng \u0110\u1EA1o",  // Trần Hưng Đạo
               "\u0E1C\u0E39\u0E49\u0E43\u0E2B\u0E0D\u0E48",  // ผู้ใหญ่: two marks on one letter
               "\u0E2A\u0E21\u0E0A\u0E32\u0E22",              // สมชาย
               "\u0915\u094D\u0937\u0924\u094D\u0930\u093F\u092F",  // क्षत्रिय
               "\u0936\u094D\u0930\u0940\u0928\u093F\u0935\u093E\u0938",  // श्रीनिवास
               "\u0915\u0940\u0902",         // कीं: a vowel sign and a nasal sign
               "\u5C71\u7530 \u82B1\u5B50",  // 山田 花子
               "O'Brien", "N\u2019Diaye", "x\u0301\u0302\u0303\u0304");  // four marks
  CAPTURE(name);
  CHECK(check_name(name).ok());
}

TEST_CASE("names are kept in NFKC: what a player sees happen to their name", "[protocol][names]") {
  auto [typed, kept] = GENERATE(table<std::string, std::string>({
      {"\uFF21\uFF4E\uFF41", "Ana"},  // fullwidth Ａｎａ
      {"\uFF80\uFF85\uFF76 \uFF8A\uFF85\uFF7A",
       "\u30BF\u30CA\u30AB \u30CF\u30CA\u30B3"},  // half-width ﾀﾅｶ ﾊﾅｺ: タナカ ハナコ
      {"\uFF76\uFF9E\uFF78", "\u30AC\u30AF"},  // ｶﾞｸ: the voiced mark joins its kana
      {"\uFB01ona", "fiona"},                  // the ligature ﬁ
      {"R\u00B2D\u00B2", "R2D2"},              // superscript twos
      {"nb\u00A0space", "nb space"},           // a no-break space is a space
      {"Louis \u216B", "Louis XII"},           // the Roman numeral Ⅻ
  }));
  CAPTURE(typed);
  auto check = check_name(typed);
  REQUIRE(check.ok());
  CHECK(check.name == kept);
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
