// Compact JSON as appends to one string. nlohmann's dump goes through a virtual output adapter
// one character or one short run at a time; at a state frame per step of every room that would
// be a twentieth of the server's CPU. Here the text goes through a buffer on the stack, appended to
// the string in blocks. Floats and strings with bytes past ASCII are rare here and go through
// nlohmann itself, so that its number format and UTF-8 checks stay the only ones.
#include "engine/core/json_text.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>

namespace tanbo_server::engine::json_text {
namespace {

using Json = nlohmann::json;

std::string nlohmann_text(const Json& j) {
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// An integer's decimal text, written into `text`: 24 characters hold any 64-bit one, sign included.
constexpr std::size_t kNumberChars = 24;
template <class Int>
std::string_view number_text(char (&text)[kNumberChars], Int n) {
  auto [end, ec] = std::to_chars(text, text + kNumberChars, n);
  return {text, std::size_t(end - text)};
}

// The string's end, written through a block on the stack; flushed when full and at the end.
class Sink {
 public:
  explicit Sink(std::string& out) : out_(out) {}
  ~Sink() { flush(); }
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  void put(char c) {
    if (n_ == sizeof buf_) flush();
    buf_[n_++] = c;
  }
  void put(std::string_view s) {
    if (s.size() > sizeof buf_ - n_) {
      flush();
      if (s.size() > sizeof buf_) return (void)out_.append(s);
    }
    std::memcpy(buf_ + n_, s.data(), s.size());
    n_ += s.size();
  }
  template <class Int>
  void put_number(Int n) {
    char text[kNumberChars];
    put(number_text(text, n));
  }
  void flush() {
    out_.append(buf_, n_);
    n_ = 0;
  }

 private:
  std::string& out_;
  std::size_t n_ = 0;
  char buf_[512];
};

// Whether a byte is written other than as itself: a control character, '"', '\\' or a byte past
// ASCII (UTF-8, which nlohmann checks).
constexpr bool needs_care(unsigned char c) {
  return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}

// The same for any of eight bytes at once; the bit tricks are exact for "any byte", which is all
// that is asked. A state's text is mostly names and keys that need none: this is most of a string.
constexpr bool any_needs_care(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  constexpr auto has_zero = [](std::uint64_t v) { return (v - ones) & ~v; };
  const std::uint64_t control = (w - ones * 0x20) & ~w;  // a byte below 0x20 (with bit 7 clear)
  return ((control | has_zero(w ^ (ones * '"')) | has_zero(w ^ (ones * '\\')) | w) & highs) != 0;
}

void write_string(Sink& out, std::string_view s) {
  const std::size_t plain = plain_run(s);
  for (std::size_t i = plain; i < s.size(); ++i)
    if (static_cast<unsigned char>(s[i]) >= 0x80) return out.put(nlohmann_text(Json(s)));
  out.put('"');
  out.put(s.substr(0, plain));
  for (unsigned char c : s.substr(plain)) {
    switch (c) {
      case '"':
        out.put("\\\"");
        break;
      case '\\':
        out.put("\\\\");
        break;
      case '\b':
        out.put("\\b");
        break;
      case '\f':
        out.put("\\f");
        break;
      case '\n':
        out.put("\\n");
        break;
      case '\r':
        out.put("\\r");
        break;
      case '\t':
        out.put("\\t");
        break;
      default:
        if (c < 0x20) {
          static constexpr char hex[] = "0123456789abcdef";
          const char u[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
          out.put(std::string_view(u, sizeof u));
        } else {
          out.put(char(c));
        }
    }
  }
  out.put('"');
}

void write_value(Sink& out, const Json& j) {
  if (const auto* o = j.get_ptr<const Json::object_t*>()) {
    out.put('{');
    bool first = true;
    for (const auto& [key, value] : *o) {
      if (!first) out.put(',');
      first = false;
      write_string(out, key);
      out.put(':');
      write_value(out, value);
    }
    return out.put('}');
  }
  if (const auto* a = j.get_ptr<const Json::array_t*>()) {
    out.put('[');
    bool first = true;
    for (const auto& e : *a) {
      if (!first) out.put(',');
      first = false;
      write_value(out, e);
    }
    return out.put(']');
  }
  if (const auto* s = j.get_ptr<const Json::string_t*>()) return write_string(out, *s);
  // Unsigned first: nlohmann's is_number_integer(), which get_ptr checks, holds for both.
  if (const auto* u = j.get_ptr<const Json::number_unsigned_t*>()) return out.put_number(*u);
  if (const auto* i = j.get_ptr<const Json::number_integer_t*>()) return out.put_number(*i);
  if (const auto* b = j.get_ptr<const Json::boolean_t*>()) return out.put(*b ? "true" : "false");
  if (j.is_null()) return out.put("null");
  out.put(nlohmann_text(j));  // floats, binary, discarded
}

// Straight to the string: a Sink here would be flushed unwritten, which GCC 12's
// -Wmaybe-uninitialized takes for a read of its buffer in an optimised unity build.
template <class Int>
void append_number(std::string& out, Int n) {
  char text[kNumberChars];
  out.append(number_text(text, n));
}

}  // namespace

// Whether no byte of s needs care, in a few loads whatever its length: the last word overlaps the
// one before it, and a string shorter than a word is read as two halves or three bytes. Keys and
// most values are a few bytes long, so that the loop of plain_run would mostly run byte by byte.
bool plain(std::string_view s) {
  const char* p = s.data();
  const std::size_t n = s.size();
  std::uint64_t w;
  if (n >= 8) {
    for (std::size_t i = 0; i + 8 < n; i += 8) {
      std::memcpy(&w, p + i, 8);
      if (any_needs_care(w)) return false;
    }
    std::memcpy(&w, p + n - 8, 8);
    return !any_needs_care(w);
  }
  if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return !any_needs_care(lo | std::uint64_t(hi) << 32);
  }
  if (n == 0) return true;
  // One to three bytes, the other five filled with a letter.
  w = 0x6161616161000000ull | std::uint64_t(static_cast<unsigned char>(p[0])) |
      std::uint64_t(static_cast<unsigned char>(p[n / 2])) << 8 |
      std::uint64_t(static_cast<unsigned char>(p[n - 1])) << 16;
  return !any_needs_care(w);
}

std::size_t plain_run(std::string_view s) {
  if (plain(s)) return s.size();
  std::size_t i = 0;
  for (std::uint64_t w; i + 8 <= s.size(); i += 8) {
    std::memcpy(&w, s.data() + i, 8);
    if (any_needs_care(w)) break;
  }
  while (i < s.size() && !needs_care(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

void append_int(std::string& out, std::int64_t n) { append_number(out, n); }

void append_uint(std::string& out, std::uint64_t n) { append_number(out, n); }

void append_bool(std::string& out, bool b) { out += b ? "true" : "false"; }

void append_string(std::string& out, std::string_view s) {
  Sink sink(out);
  write_string(sink, s);
}

void append(std::string& out, const nlohmann::json& j) {
  Sink sink(out);
  write_value(sink, j);
}

}  // namespace tanbo_server::engine::json_text
