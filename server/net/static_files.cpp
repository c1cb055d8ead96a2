#include "server/net/static_files.hpp"

#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <system_error>

namespace tanbo::server::static_files {
namespace {

using Request = http::request<http::string_body>;
namespace fs = std::filesystem;

struct Type {
  std::string_view ext, mime;
};
constexpr std::array<Type, 14> kTypes = {{
    {".html", "text/html; charset=utf-8"},
    {".js", "text/javascript; charset=utf-8"},
    {".mjs", "text/javascript; charset=utf-8"},
    {".css", "text/css; charset=utf-8"},
    {".svg", "image/svg+xml"},
    {".json", "application/json"},
    {".webmanifest", "application/manifest+json"},
    {".png", "image/png"},
    {".ico", "image/x-icon"},
    {".jpg", "image/jpeg"},
    {".webp", "image/webp"},
    {".woff2", "font/woff2"},
    {".txt", "text/plain; charset=utf-8"},
    {".md", "text/markdown; charset=utf-8"},
}};

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size()) return std::nullopt;
    int hi = hex_value(s[i + 1]), lo = hex_value(s[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

http::response<http::string_body> base(const Request& req, http::status status) {
  http::response<http::string_body> res{status, req.version()};
  res.set(http::field::server, "tanbo-server");
  res.keep_alive(req.keep_alive());
  return res;
}

http::response<http::string_body> json_error(const Request& req, http::status status,
                                             std::string_view code, std::string message) {
  auto res = base(req, status);
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  if (status == http::status::method_not_allowed) res.set(http::field::allow, "GET, HEAD");
  res.body() = nlohmann::json{{"error", {{"code", code}, {"message", std::move(message)}}},
                              {"status", static_cast<unsigned>(status)}}
                   .dump();
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();
  return res;
}

// True when `path` (canonical) lies inside `root` (canonical): symlinks cannot lead out.
bool inside(const fs::path& root, const fs::path& path) {
  auto r = root.begin(), p = path.begin();
  for (; r != root.end(); ++r, ++p)
    if (p == path.end() || *p != *r) return false;
  return true;
}

}  // namespace

std::string_view content_type(std::string_view filename) {
  auto dot = filename.rfind('.');
  if (dot != std::string_view::npos) {
    std::string_view ext = filename.substr(dot);
    for (const auto& t : kTypes)
      if (t.ext == ext) return t.mime;
  }
  return "application/octet-stream";
}

std::optional<fs::path> resolve(const fs::path& root, std::string_view url_path) {
  if (url_path.empty() || url_path.front() != '/') return std::nullopt;
  auto decoded = percent_decode(url_path);
  if (!decoded) return std::nullopt;
  std::string_view rest = *decoded;
  if (rest == "/") return root / "index.html";
  fs::path out = root;
  rest.remove_prefix(1);
  while (!rest.empty()) {
    auto slash = rest.find('/');
    std::string_view seg = rest.substr(0, slash);
    // An empty segment (`//`) or a trailing slash names no file; a leading dot hides `..`,
    // `.` and dot files alike.
    if (seg.empty() || seg.front() == '.') return std::nullopt;
    for (char c : seg)
      if (c == '\\' || c == '\0' || static_cast<unsigned char>(c) < 0x20) return std::nullopt;
    out /= std::string(seg);
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
    if (rest.empty()) return std::nullopt;
  }
  return out;
}

std::string etag(std::uintmax_t size, fs::file_time_type mtime) {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(mtime.time_since_epoch()).count();
  char buf[64];
  std::snprintf(buf, sizeof buf, "\"%jx-%llx\"", size, static_cast<unsigned long long>(ns));
  return buf;
}

http::response<http::string_body> serve(const Request& req, const fs::path& root) {
  if (req.method() != http::verb::get && req.method() != http::verb::head)
    return json_error(req, http::status::method_not_allowed, "bad_method", "use GET or HEAD");
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    return json_error(req, http::status::not_found, "not_found",
                      "the browser client is not installed: no directory '" + root.string() +
                          "' (set --web-dir or TANBO_WEB_DIR)");
  std::string_view target = req.target();
  std::string_view path = target.substr(0, target.find('?'));
  auto file = resolve(root, path);
  auto not_found = [&] {
    return json_error(req, http::status::not_found, "not_found",
                      "no such path: " + std::string(path));
  };
  if (!file) return not_found();
  fs::path real = fs::weakly_canonical(*file, ec);
  fs::path real_root = fs::weakly_canonical(root, ec);
  if (ec || !inside(real_root, real) || !fs::is_regular_file(real, ec)) return not_found();

  auto size = fs::file_size(real, ec);
  if (ec) return not_found();
  auto mtime = fs::last_write_time(real, ec);
  if (ec) return not_found();
  std::string tag = etag(size, mtime);

  auto finish = [&](http::response<http::string_body>& res) {
    res.set(http::field::etag, tag);
    // Revalidate every time: file names carry no hash, and a 304 costs one round trip.
    res.set(http::field::cache_control, "no-cache");
    res.set("X-Content-Type-Options", "nosniff");
  };
  if (auto inm = req[http::field::if_none_match]; !inm.empty() && inm.find(tag) != inm.npos) {
    auto res = base(req, http::status::not_modified);
    finish(res);
    return res;
  }

  std::ifstream in(real, std::ios::binary);
  std::string body{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (!in.good() && !in.eof()) return not_found();
  auto res = base(req, http::status::ok);
  finish(res);
  res.set(http::field::content_type, content_type(real.filename().string()));
  res.body() = std::move(body);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.body().clear();  // Content-Length stays the GET's
  return res;
}

}  // namespace tanbo::server::static_files
