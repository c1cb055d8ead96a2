#pragma once
// A mail address as accounts keep it: one form per address, so that an address is found and
// kept unique whatever case it was typed in.
#include <optional>
#include <string>
#include <string_view>

namespace tanbo_server::server::mail {

inline constexpr std::size_t kMaxAddressChars = 254;  // RFC 5321's path, less its brackets

// `text` trimmed of spaces and in lower case, if it reads as local@domain: printable ASCII with
// no space, quote, bracket, comma, semicolon or backslash (nothing that could end a header or
// name a second recipient), a local part of 1-64 characters, a domain of dot-separated labels of
// letters, digits and '-'. nullopt otherwise (internationalised addresses included).
std::optional<std::string> normalize_address(std::string_view text);

// The page's address as its players reach it (--public-url), where the links in the mails lead:
// http[s]://HOST[:PORT][/PATH], printable, with no query or fragment; its trailing '/' dropped.
std::optional<std::string> public_url(std::string_view text);

}  // namespace tanbo_server::server::mail
