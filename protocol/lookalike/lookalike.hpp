#pragma once
// Names that could pass for others (docs/protocol.md, "Names"). Two names look alike when they
// share a key: Unicode's confusable skeleton (UTS #39, through ICU's spoof checker) of the name
// in NFKC, case-folded. The server refuses a chosen name that looks like an account's
// (name_reserved) or like a name the server itself gives (bad_name).
//
// This library alone links ICU; no header of it includes ICU's, so the engine, the protocol and
// the rest of the server build without them.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tanbo_server::protocol {

// casefold(skeleton(casefold(NFKC(name)))): the inner fold makes "ANA" and "ana" one name, the
// outer one lets the capitals a skeleton gives ("0" becomes "O") meet their small letters. So
// "Ana", "ana", "Аna" (a Cyrillic А) and "Ａｎａ" have one key. nullopt when `name` is not valid
// UTF-8 (or ICU fails, which it does only out of memory).
std::optional<std::string> lookalike_key(std::string_view name);
// The keys a name is compared by, one or two: lookalike_key, and casefold(skeleton(NFKC(name)))
// when it differs, which keeps a capital I apart from a small i until the skeleton has made it
// an l ("AIice" with a capital I looks like "Alice"; folded first it would be "aiice").
// Two names look alike when they share a key. Empty for text that is not valid UTF-8.
std::vector<std::string> lookalike_keys(std::string_view name);

// Why `name`, accepted by check_name, may not be chosen by a person: it looks like a name the
// server gives ("deleted player", a new guest's "Guest 1a2b", a computer seat's "CPU (mcts)" or
// the page's "Computer 2") or like its operators' ("admin", "moderator", "Tanbo staff"...),
// compared by lookalike_key, spaces and punctuation aside. nullopt when it may be chosen.
std::optional<std::string> reserved_name(std::string_view name);

}  // namespace tanbo_server::protocol
