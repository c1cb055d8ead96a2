#pragma once
// The browser client: the files of web/ served as they are. `/` is index.html; any other path
// names a file under the web directory. Nothing outside that directory is ever read.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "server/net/beast.hpp"

namespace tanbo::server::static_files {

// The Content-Type for a file name, by its extension; application/octet-stream when unknown.
std::string_view content_type(std::string_view filename);

// The file under `root` that the URL path (percent-encoded, no query string) names, or nullopt
// when it would leave `root`: a `..` or `.` segment, a hidden segment, a backslash, a NUL, a bad
// percent escape. Checks the name only; serve() also checks where symlinks lead.
std::optional<std::filesystem::path> resolve(const std::filesystem::path& root,
                                             std::string_view url_path);

// A validator that changes whenever the file does: size and modification time.
std::string etag(std::uintmax_t size, std::filesystem::file_time_type mtime);

// Answers a GET or HEAD of a static file: 200 with the file, 304 when If-None-Match matches,
// 404 JSON when there is no such file (or no web directory: the message names --web-dir),
// 405 for another method. Never throws.
http::response<http::string_body> serve(const http::request<http::string_body>& req,
                                        const std::filesystem::path& root);

}  // namespace tanbo::server::static_files
