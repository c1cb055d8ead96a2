#pragma once
// The browser client: the files of web/, kept in memory once per version with their gzip and
// brotli forms, under two kinds of names (docs/web.md, "Serving"):
// - `/v/<version>/<path>`: the version is a hash of every file of the folder, so a name never
//   holds two contents; the current version's answers may be kept a year (`immutable`);
// - `/<path>`: the same files revalidated on every use (`no-cache`), for names that must stay put
//   (the service worker's scope, links from elsewhere).
// `/` is index.html as web_page.hpp fills it in: its links under the current version, the
// modules of its start-up preloaded, the reader's language named, and the data the page starts
// with (the games' registry) inlined. Nothing outside the folder is ever read.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/net/beast.hpp"

namespace tanbo_server::server::static_files {

// The Content-Type for a file name, by its extension; application/octet-stream when unknown.
std::string_view content_type(std::string_view filename);

// The file under `root` that the URL path (percent-encoded, no query string) names, or nullopt
// when it would leave `root`: a `..` or `.` segment, a hidden segment, a backslash, a NUL, a bad
// percent escape. Checks the name only; Site::serve also checks where symlinks lead.
std::optional<std::filesystem::path> resolve(const std::filesystem::path& root,
                                             std::string_view url_path);

// True when If-None-Match (a list of entity tags, weak ones compared weakly, or `*`) names `tag`.
bool none_match_names(std::string_view header, std::string_view tag);

// True when `v` may be a version, the segment after kVersionPrefix: 1 to 64 lowercase hex digits.
bool is_version(std::string_view v);

// The page, the file `/` names.
inline constexpr std::string_view kPage = "index.html";

// The first segment of the versioned names: `/v/<version>/...`.
inline constexpr std::string_view kVersionPrefix = "/v/";

// The web folder as served. Thread-safe: every network thread serves through the same Site. A
// file is read again when its size or modification time changes, and the version is taken
// again at every request for the page, so an edited file is served at once, under a new version.
class Site {
 public:
  // `page_data`: JSON documents the page reads as it starts, each put in index.html's head as
  // `<script type="application/json" id="ID">` (a data block: never run, so the
  // Content-Security-Policy has nothing to refuse), by id.
  explicit Site(std::filesystem::path root,
                std::vector<std::pair<std::string, std::string>> page_data = {});
  ~Site();
  Site(const Site&) = delete;
  Site& operator=(const Site&) = delete;

  // Answers a GET or HEAD of the page or a file: 200 in the best coding the request admits
  // (`Content-Encoding`, `Vary: Accept-Encoding`, an ETag per coding), 304 when If-None-Match
  // names the answer's ETag, 404 JSON when there is no such file (or no web directory: the
  // message names --web-dir), 405 for another method. Never throws.
  http::response<http::string_body> serve(const http::request<http::string_body>& req);

  // The version of the files now: 12 hex digits of a SHA-256 over every file's name and content
  // (the folder scanned again). Empty when there is no web directory.
  std::string version();

  const std::filesystem::path& root() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tanbo_server::server::static_files
