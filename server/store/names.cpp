#include "server/store/names.hpp"

#include <array>
#include <cstdint>

namespace tanbo::server::store {
namespace {

struct Range {
  char32_t lo, hi;
};

// Letter blocks beyond ASCII, without their punctuation, symbols, combining marks or format
// characters (a name must not hide invisible or direction-changing characters).
constexpr std::array kLetters{
    Range{0x00C0, 0x00D6}, Range{0x00D8, 0x00F6}, Range{0x00F8, 0x024F},  // Latin-1, Extended A/B
    Range{0x0370, 0x0373}, Range{0x0376, 0x0377}, Range{0x037B, 0x037D},  // Greek
    Range{0x0386, 0x0386}, Range{0x0388, 0x03FF},                         //
    Range{0x0400, 0x0481}, Range{0x048A, 0x052F},                         // Cyrillic
    Range{0x0531, 0x0556}, Range{0x0561, 0x0587},                         // Armenian
    Range{0x05D0, 0x05EA}, Range{0x0620, 0x064A},                         // Hebrew, Arabic
    Range{0x0904, 0x0939}, Range{0x0E01, 0x0E30},                         // Devanagari, Thai
    Range{0x10A0, 0x10FF}, Range{0x1E00, 0x1FFF},  // Georgian, Latin/Greek ext.
    Range{0x3041, 0x3096}, Range{0x30A1, 0x30FA},  // Hiragana, Katakana
    Range{0x3400, 0x4DBF}, Range{0x4E00, 0x9FFF},  // CJK ideographs
    Range{0xAC00, 0xD7A3},                         // Hangul syllables
};

bool is_letter(char32_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) return true;
  for (auto r : kLetters)
    if (c >= r.lo && c <= r.hi) return true;
  return false;
}

// Decodes one code point at s[i], advancing i; nullopt on malformed UTF-8 (overlong forms,
// surrogates and values past U+10FFFF included).
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto b0 = std::uint8_t(s[i]);
  int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + std::size_t(len) > s.size()) return std::nullopt;
  char32_t c = len == 1 ? b0 : len == 2 ? (b0 & 0x1F) : len == 3 ? (b0 & 0x0F) : (b0 & 0x07);
  for (int k = 1; k < len; ++k) {
    const auto b = std::uint8_t(s[i + std::size_t(k)]);
    if ((b >> 6) != 0x2) return std::nullopt;
    c = (c << 6) | (b & 0x3F);
  }
  constexpr std::array<char32_t, 5> kMin{0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[std::size_t(len)] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
    return std::nullopt;
  i += std::size_t(len);
  return c;
}

}  // namespace

std::optional<std::string> validate_name(std::string_view name) {
  if (name.empty()) return "a name needs at least 1 character";
  if (name.front() == ' ' || name.back() == ' ') return "a name may not start or end with a space";
  int count = 0;
  for (std::size_t i = 0; i < name.size();) {
    auto c = next_code_point(name, i);
    if (!c) return "a name must be valid UTF-8";
    bool ok = is_letter(*c) || (*c >= '0' && *c <= '9') || *c == ' ' || *c == '_' || *c == '-' ||
              *c == '.';
    if (!ok) return "a name may hold only letters, digits, spaces and _ - .";
    if (++count > kNameMaxChars) return "a name may have at most 24 characters";
  }
  return std::nullopt;
}

}  // namespace tanbo::server::store
