#pragma once
// The compressed forms of the browser client's files, and which of them a request admits:
// gzip (zlib, level 9) for every browser, brotli (libbrotlienc, quality 11) for those that ask
// for it (browsers do over HTTPS only). Both are computed once per file version and kept
// (static_files.cpp), so their slowness (brotli 11: about 1 MB/s) is paid once.
#include <string>
#include <string_view>

namespace tanbo_server::server::content_coding {

enum class Coding { identity, gzip, br };

// "gzip", "br", or "" for identity: the Content-Encoding value.
std::string_view name(Coding coding);

// `data` as a gzip member (RFC 1952), at zlib's best compression.
std::string gzip(std::string_view data);

// `data` as a brotli stream (RFC 7932), quality 11, in text mode.
std::string brotli(std::string_view data);

// What an Accept-Encoding header admits (RFC 9110, 12.5.3): a coding named with a q-value above
// zero, or covered by `*` when not named. Identity is always admitted.
struct Accepted {
  bool gzip = false;
  bool br = false;
};
Accepted accepted(std::string_view accept_encoding);

}  // namespace tanbo_server::server::content_coding
