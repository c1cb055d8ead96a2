#pragma once
// The mails the server sends, in the reader's language (English, French, Japanese), and the text
// a sendmail-compatible command reads: headers, a blank line, the body, in UTF-8.
#include <cstdint>
#include <string>
#include <string_view>

namespace tanbo_server::server::mail {

struct Message {
  std::string to;  // a normalised address (address.hpp)
  std::string subject;
  std::string body;
};

enum class Kind {
  confirm,  // "this address is yours": the link confirms it
  reset,    // "a new password": the link opens the page's "choose a new password"
};

// The mail of `kind` to `to` for the account `username`, its `link` good for `minutes`; `lang`
// "fr" or "ja", anything else English.
Message written(Kind kind, std::string_view lang, std::string to, std::string_view username,
                std::string_view link, int minutes);

// The whole mail for the command's stdin: From (`from`, as the operator wrote it), To, Subject
// (RFC 2047 encoded when it is not ASCII), Date (`now_ms`), Message-ID, MIME headers for UTF-8
// text, then the body. Lines end with LF, as sendmail's stdin expects.
std::string compose(const Message& m, std::string_view from, std::int64_t now_ms);

// True for a --mail-from the headers can carry: "addr@example.org" or "Name <addr@example.org>",
// printable, on one line.
bool sender_ok(std::string_view from);

}  // namespace tanbo_server::server::mail
