// A recursive descent over the plain subset (json_read.hpp): a value's first byte says what it
// is; anything outside the subset ends the read with false, never with a guess.
#include "protocol/json_read.hpp"

#include <cstdint>
#include <limits>
#include <string>

#include "engine/core/json_text.hpp"

namespace tanbo_server::protocol::json_read {
namespace {

using Json = nlohmann::json;

constexpr int kMaxDepth = 64;

class Reader {
 public:
  explicit Reader(std::string_view text) : p_(text.data()), end_(text.data() + text.size()) {}

  bool value(Json& out, int depth) {
    skip_space();
    if (p_ == end_) return false;
    switch (*p_) {
      case '{':
        return depth < kMaxDepth && object(out, depth + 1);
      case '[':
        return depth < kMaxDepth && array(out, depth + 1);
      case '"': {
        out = Json::string_t();
        return string(*out.get_ptr<Json::string_t*>());
      }
      case 't':
        return literal("true", true, out);
      case 'f':
        return literal("false", false, out);
      case 'n':
        return literal("null", nullptr, out);
      default:
        return number(out);
    }
  }

  bool at_end() {
    skip_space();
    return p_ == end_;
  }

 private:
  // RFC 8259's four whitespace bytes, as nlohmann's lexer skips them.
  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool take(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  bool literal(std::string_view word, Json value, Json& out) {
    if (std::size_t(end_ - p_) < word.size() || std::string_view(p_, word.size()) != word)
      return false;
    p_ += word.size();
    out = std::move(value);
    return true;
  }

  // At its opening quote. A string ends at the first byte a plain run stops at, which must be
  // its closing quote: an escape, a control character or a byte past ASCII declines.
  bool string(std::string& out) {
    ++p_;
    const std::size_t run =
        engine::json_text::plain_run(std::string_view(p_, std::size_t(end_ - p_)));
    if (p_ + run == end_ || p_[run] != '"') return false;
    out.assign(p_, run);
    p_ += run + 1;
    return true;
  }

  // -?(0|[1-9][0-9]*), within 64 bits: a fraction, an exponent or an overflow declines (nlohmann
  // makes floats of them).
  bool number(Json& out) {
    const bool negative = *p_ == '-';
    if (negative) ++p_;
    if (p_ == end_ || *p_ < '0' || *p_ > '9') return false;
    std::uint64_t n = 0;
    if (*p_ == '0') {
      ++p_;
    } else {
      for (; p_ != end_ && *p_ >= '0' && *p_ <= '9'; ++p_)
        if (__builtin_mul_overflow(n, 10u, &n) ||
            __builtin_add_overflow(n, unsigned(*p_ - '0'), &n))
          return false;
    }
    if (p_ != end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E')) return false;
    if (!negative) {
      out = n;
      return true;
    }
    constexpr auto kMin = std::numeric_limits<std::int64_t>::min();
    if (n > std::uint64_t(kMin)) return false;  // |-2^63| as unsigned: the largest magnitude
    out = n == std::uint64_t(kMin) ? kMin : -std::int64_t(n);
    return true;
  }

  bool object(Json& out, int depth) {
    ++p_;
    out = Json::object();
    auto& members = *out.get_ptr<Json::object_t*>();
    if (take('}')) return true;
    do {
      skip_space();
      if (p_ == end_ || *p_ != '"') return false;
      std::string key;
      if (!string(key) || !take(':')) return false;
      auto [at, fresh] = members.try_emplace(std::move(key));
      if (!fresh || !value(at->second, depth))
        return false;  // nlohmann keeps a repeated key's last
    } while (take(','));
    return take('}');
  }

  bool array(Json& out, int depth) {
    ++p_;
    out = Json::array();
    auto& items = *out.get_ptr<Json::array_t*>();
    if (take(']')) return true;
    do {
      if (!value(items.emplace_back(), depth)) return false;
    } while (take(','));
    return take(']');
  }

  const char* p_;
  const char* end_;
};

}  // namespace

bool read_plain(std::string_view text, Json& out) {
  Reader r(text);
  return r.value(out, 0) && r.at_end();
}

Json read(std::string_view text) {
  Json out;
  if (!read_plain(text, out)) out = Json::parse(text, nullptr, false);
  return out;
}

}  // namespace tanbo_server::protocol::json_read
