#pragma once
// JSON written as text by appending to one string: what the protocol's frames and a step's
// events are made of. Byte for byte what nlohmann's dump(-1) writes with invalid UTF-8 replaced,
// without its character-at-a-time output adapter (a frame is serialized at every step of every
// room).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tanbo_server::engine::json_text {

void append_int(std::string& out, std::int64_t n);
void append_uint(std::string& out, std::uint64_t n);
void append_bool(std::string& out, bool b);
// A JSON string: nlohmann's escapes for ASCII; a string with any other byte goes through
// nlohmann itself, which checks its UTF-8 (names and ids are checked on the way in, so this is
// the rare path).
void append_string(std::string& out, std::string_view s);
// Any value, compact.
void append(std::string& out, const nlohmann::json& j);

// The length of the leading run of s that a JSON string holds as it is: no control character, no
// '"' or '\\', no byte past ASCII. Read eight bytes at a time; json_read uses it too.
std::size_t plain_run(std::string_view s);
// plain_run(s) == s.size(), in a few loads for a short string (a key, a name).
bool plain(std::string_view s);

}  // namespace tanbo_server::engine::json_text
