#pragma once
// Text people type: display names and chat lines. One Unicode-aware rule for each kind of text,
// the same in the server, the store and the docs (docs/protocol.md, "Names"): normalized (names
// to NFKC, chat to NFC), and no control or invisible character ever gets through.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tanbo_server::protocol {

// `raw` in Unicode Normalization Form C; nullopt when it is not valid UTF-8.
std::optional<std::string> to_nfc(std::string_view raw);
// `raw` in Normalization Form KC: compatibility characters replaced by the plain ones they stand
// for (fullwidth "Ａ" by "A", "ﬁ" by "fi", half-width "ｱ" by "ア"); nullopt for invalid UTF-8.
std::optional<std::string> to_nfkc(std::string_view raw);
// The form two names are compared in, as usernames are: case-folded, then NFC (so "ÉVE", "éve"
// and "e" + U+0301 + "ve" are one name); nullopt when it is not valid UTF-8.
std::optional<std::string> fold_case(std::string_view raw);
// Code points of valid UTF-8 text (continuation bytes not counted).
std::size_t code_points(std::string_view utf8);

// A display name: 1 to 24 characters after NFKC, each a letter (with at most kMaxMarksInRow
// combining marks), a digit, a space or one of the punctuation names use (' ’ - ‐ . _ · ・),
// with a letter or a digit somewhere, no space at either end and never two in a row; nothing
// drawn as nothing (default-ignorable code points, the Hangul fillers). Names that look like
// the server's own or like an account's are refused elsewhere (protocol/lookalike/).
struct NameCheck {
  std::string name;     // the name in NFKC, when accepted
  std::string problem;  // empty when accepted; else what is wrong, for people
  bool ok() const { return problem.empty(); }
};
NameCheck check_name(std::string_view raw);

// A chat line: 1 to 280 characters after NFC, no control character, no invisible formatting
// character (but the zero-width joiner inside an emoji sequence), no private-use or unassigned
// code point.
NameCheck check_chat(std::string_view raw);

}  // namespace tanbo_server::protocol
