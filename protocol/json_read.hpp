#pragma once
// JSON read from text on the common path: every client frame is parsed, and nlohmann's parser
// spends about 11,000 instructions on a 90-byte `act` (a virtual input adapter and a lexer that
// take one character at a time). Clients nearly always send the plain subset read here; for any
// other text this reader declines and the caller asks nlohmann, whose reading (its errors, its
// escapes, its UTF-8 checks, its floats) stays the only one.
#include <string_view>

#include <nlohmann/json.hpp>

namespace tanbo_server::protocol::json_read {

// Reads `text` into `out` when it is one value in the plain subset, with JSON's whitespace around
// and between its tokens: objects without a repeated key, arrays, strings of printable ASCII
// without escapes, integers that fit 64 bits (non-negative ones unsigned, negative ones signed,
// as nlohmann reads them), true, false and null, nested at most 64 deep. Then `out` equals what
// nlohmann::json::parse gives, number types included. Otherwise returns false and leaves `out`
// unspecified: the text may still be valid JSON outside the subset.
bool read_plain(std::string_view text, nlohmann::json& out);

// Any JSON text: the plain subset by read_plain, the rest by nlohmann. A discarded value when
// `text` is not one JSON value in UTF-8; nothing is thrown.
nlohmann::json read(std::string_view text);

}  // namespace tanbo_server::protocol::json_read
