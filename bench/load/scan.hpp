#pragma once
// Reading server messages without building a DOM: the load generator receives tens of thousands of
// `state` messages a second and needs only a few top-level members of each, so it walks the text
// once and keeps views. The one DOM it builds is none: a legal action is sent back as the raw text
// of its array element, which the server matches verbatim.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tanbo_server::load {

// The top-level members a client follows, as views into the message text. String members hold
// the characters between the quotes (escapes left as they are); `re` and `legal` the raw value.
struct Scanned {
  std::string_view type, room, status, code, re, legal;
  std::optional<std::uint64_t> version;
};

// False when `text` is not one well-formed JSON object as far as this walk can tell.
bool scan(std::string_view text, Scanned& out);

// The raw texts of the elements of a JSON array (`array` from '[' to ']'); false when malformed.
bool split_array(std::string_view array, std::vector<std::string_view>& out);

}  // namespace tanbo_server::load
