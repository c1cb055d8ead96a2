// The scan that decides whether a string is written as it is, checked at every length a key or a
// name has and beyond, with a byte needing care at every place.
#include <catch2/catch.hpp>

#include <string>

#include "engine/core/json_text.hpp"

using namespace tanbo_server::engine;

TEST_CASE("plain and plain_run find a byte that needs care at any place of any length",
          "[core][json_text]") {
  const unsigned char careful[] = {0x00, 0x1f, '"', '\\', 0x80, 0xff, 0xc3};
  const unsigned char harmless[] = {0x20, '!', '#', '[', ']', 0x7f, 'z', '~'};
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string s(n, 'k');
    CAPTURE(n);
    CHECK(json_text::plain(s));
    CHECK(json_text::plain_run(s) == n);
    for (std::size_t at = 0; at < n; ++at) {
      CAPTURE(at);
      for (unsigned char c : careful) {
        s[at] = char(c);
        CAPTURE(int(c));
        CHECK_FALSE(json_text::plain(s));
        CHECK(json_text::plain_run(s) == at);
      }
      for (unsigned char c : harmless) {
        s[at] = char(c);
        CHECK(json_text::plain(s));
      }
      s[at] = 'k';
    }
  }
}
