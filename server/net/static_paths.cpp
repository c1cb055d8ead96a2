#include "server/net/static_files.hpp"

#include <array>

// The names of web/'s files: which file a URL path names, and the type a name is served as.
namespace tanbo_server::server::static_files {
namespace {

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

}  // namespace

bool none_match_names(std::string_view header, std::string_view tag) {
  while (!header.empty()) {
    auto comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header.remove_prefix(comma == std::string_view::npos ? header.size() : comma + 1);
    while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
    while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
    if (item.starts_with("W/")) item.remove_prefix(2);
    if (item == "*" || item == tag) return true;
  }
  return false;
}

bool is_version(std::string_view v) {
  if (v.empty() || v.size() > 64) return false;
  for (char c : v)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

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
  if (rest == "/") return root / kPage;
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

}  // namespace tanbo_server::server::static_files
