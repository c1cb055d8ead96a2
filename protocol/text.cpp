#include "protocol/text.hpp"

#include <utf8proc.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "protocol/limits.hpp"

namespace tanbo_server::protocol {
namespace {

// Punctuation that belongs in names: the apostrophes of O'Brien and N’Diaye, hyphens, the
// period of initials, the underscore of handles, the Catalan and the Japanese middle dots.
constexpr std::array<char32_t, 8> kNamePunctuation = {U'\'', U'\u2019', U'-',      U'\u2010',
                                                      U'.',  U'_',      U'\u00B7', U'\u30FB'};

bool is_letter(utf8proc_category_t c) {
  return c == UTF8PROC_CATEGORY_LU || c == UTF8PROC_CATEGORY_LL || c == UTF8PROC_CATEGORY_LT ||
         c == UTF8PROC_CATEGORY_LM || c == UTF8PROC_CATEGORY_LO;
}

bool is_mark(utf8proc_category_t c) {
  return c == UTF8PROC_CATEGORY_MN || c == UTF8PROC_CATEGORY_MC || c == UTF8PROC_CATEGORY_ME;
}

// Drawn as nothing: the default-ignorable code points (zero-width spaces and joiners, direction
// marks, variation selectors, the combining grapheme joiner...) and the Hangul fillers, which are
// letters (Lo) that only hold a place, so that a name of fillers alone would look empty.
bool invisible(char32_t c) {
  if (c == U'\u115F' || c == U'\u1160' || c == U'\u3164' || c == U'\uFFA0') return true;
  return utf8proc_get_property(utf8proc_int32_t(c))->ignorable;
}

std::string describe(char32_t c) {
  char hex[16];
  std::snprintf(hex, sizeof hex, "U+%04X", unsigned(c));
  std::string out;
  // A character a reader can see is quoted; an invisible one is named by its number only.
  auto cat = utf8proc_category(utf8proc_int32_t(c));
  if (is_letter(cat) || cat == UTF8PROC_CATEGORY_SO || cat == UTF8PROC_CATEGORY_SM ||
      (c > 0x20 && c < 0x7F)) {
    utf8proc_uint8_t buf[4];
    auto n = utf8proc_encode_char(utf8proc_int32_t(c), buf);
    out.append("'").append(reinterpret_cast<const char*>(buf), std::size_t(n)).append("' ");
  }
  return out.append("(").append(hex).append(")");
}

constexpr std::string_view kRule =
    "a name is 1 to 24 letters, digits, spaces and ' - . _ (no space at either end)";

NameCheck refused(std::string problem) { return {{}, std::move(problem)}; }

std::optional<std::string> mapped(std::string_view raw, int options) {
  utf8proc_uint8_t* out = nullptr;
  auto n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(raw.data()),
                        utf8proc_ssize_t(raw.size()), &out,
                        utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE | options));
  std::unique_ptr<utf8proc_uint8_t, decltype(&std::free)> owned(out, &std::free);
  if (n < 0) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(out), std::size_t(n));
}

}  // namespace

std::optional<std::string> to_nfc(std::string_view raw) { return mapped(raw, 0); }

std::optional<std::string> to_nfkc(std::string_view raw) { return mapped(raw, UTF8PROC_COMPAT); }

std::optional<std::string> fold_case(std::string_view raw) {
  return mapped(raw, UTF8PROC_CASEFOLD);
}

std::size_t code_points(std::string_view s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

NameCheck check_name(std::string_view raw) {
  auto nfkc = to_nfkc(raw);
  if (!nfkc) return refused("a name must be valid UTF-8");
  const std::string& name = *nfkc;
  const std::size_t n = code_points(name);
  if (n < kMinNameChars) return refused(std::string(kRule) + ": this one is empty");
  if (n > kMaxNameChars)
    return refused(std::string(kRule) + ": this one has " + std::to_string(n) + " characters");
  bool letter_or_digit = false;
  char32_t prev = 0;
  std::size_t marks = 0;  // in a row, on the letter before them
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(name.data());
  for (std::size_t i = 0; i < name.size();) {
    utf8proc_int32_t cp = 0;
    auto len = utf8proc_iterate(p + i, utf8proc_ssize_t(name.size() - i), &cp);
    if (len <= 0) return refused("a name must be valid UTF-8");
    i += std::size_t(len);
    const auto c = char32_t(cp);
    const auto cat = utf8proc_category(cp);
    if (invisible(c)) return refused(std::string(kRule) + ", not " + describe(c) + ", invisible");
    if (!is_mark(cat)) marks = 0;
    if (is_letter(cat) || cat == UTF8PROC_CATEGORY_ND) {
      letter_or_digit = true;
    } else if (is_mark(cat)) {
      // A combining mark belongs to the letter before it (Devanagari vowel signs, say).
      if (prev == 0 || prev == U' ') return refused(std::string(kRule) + ": a mark alone");
      // Vietnamese, Thai and Devanagari need two or three on a letter; more stack into a smear
      // drawn over the lines around the name (UTS #39 flags more than four in a row).
      if (++marks > kMaxMarksInRow)
        return refused(std::string(kRule) + ": at most " + std::to_string(kMaxMarksInRow) +
                       " marks on one letter");
    } else if (c == U' ') {
      if (prev == 0 || i == name.size()) return refused(std::string(kRule) + ": an outer space");
      if (prev == U' ') return refused(std::string(kRule) + ": two spaces in a row");
    } else if (std::find(kNamePunctuation.begin(), kNamePunctuation.end(), c) ==
               kNamePunctuation.end()) {
      return refused(std::string(kRule) + ", not " + describe(c));
    }
    prev = c;
  }
  if (!letter_or_digit) return refused(std::string(kRule) + ": it needs a letter or a digit");
  return {name, {}};
}

NameCheck check_chat(std::string_view raw) {
  auto nfc = to_nfc(raw);
  if (!nfc) return refused("a chat line must be valid UTF-8");
  const std::string& line = *nfc;
  const std::size_t n = code_points(line);
  if (n < 1) return refused("a chat line needs at least 1 character");
  if (n > kMaxChatChars)
    return refused("a chat line has at most " + std::to_string(kMaxChatChars) +
                   " characters, not " + std::to_string(n));
  bool visible = false;
  char32_t prev = 0;
  const auto* p = reinterpret_cast<const utf8proc_uint8_t*>(line.data());
  for (std::size_t i = 0; i < line.size();) {
    utf8proc_int32_t cp = 0;
    auto len = utf8proc_iterate(p + i, utf8proc_ssize_t(line.size() - i), &cp);
    if (len <= 0) return refused("a chat line must be valid UTF-8");
    i += std::size_t(len);
    const auto c = char32_t(cp);
    const auto cat = utf8proc_category(cp);
    const bool joiner = c == U'\u200D' && prev > 0x7F && i < line.size();  // inside an emoji
    if (cat == UTF8PROC_CATEGORY_CC || cat == UTF8PROC_CATEGORY_CS || cat == UTF8PROC_CATEGORY_CO ||
        cat == UTF8PROC_CATEGORY_CN || cat == UTF8PROC_CATEGORY_ZL || cat == UTF8PROC_CATEGORY_ZP ||
        (cat == UTF8PROC_CATEGORY_CF && !joiner))
      return refused("a chat line may not hold " + describe(c) +
                     ": no control or invisible character");
    if (cat != UTF8PROC_CATEGORY_ZS) visible = true;
    prev = c;
  }
  if (!visible) return refused("a chat line needs a visible character");
  return {line, {}};
}

}  // namespace tanbo_server::protocol
