#include "server/api/routes.hpp"

namespace tanbo_server::server::api {
namespace {

// True when `path` matches `pattern` segment by segment, a `{name}` matching any non-empty one.
bool matches(std::string_view pattern, std::string_view path) {
  while (!pattern.empty() && !path.empty()) {
    auto p_end = pattern.find('/', 1), s_end = path.find('/', 1);
    std::string_view p = pattern.substr(0, p_end), s = path.substr(0, s_end);
    if (p.starts_with("/{") ? s.size() < 2 : p != s) return false;
    pattern.remove_prefix(p.size());
    path.remove_prefix(s.size());
  }
  return pattern.empty() && path.empty();
}

}  // namespace

const Route* find_route(std::string_view path) {
  for (const Route& r : kRoutes)
    if (matches(r.path, path)) return &r;
  return nullptr;
}

bool allows(const Route& route, std::string_view method) {
  for (std::string_view rest = route.methods; !rest.empty();) {
    auto space = rest.find(' ');
    if (rest.substr(0, space) == method) return true;
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return false;
}

std::optional<Reply> unrouted(std::string_view method, std::string_view path) {
  const Route* route = find_route(path);
  if (!route) return error_reply(404, "not_found", "no such path: " + std::string(path));
  if (allows(*route, method)) return std::nullopt;
  // "use GET", "use GET or HEAD", "use GET, PUT or DELETE"
  std::string use = "use ";
  for (std::string_view rest = route->methods; !rest.empty();) {
    auto space = rest.find(' ');
    use += rest.substr(0, space);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
    if (!rest.empty()) use += rest.find(' ') == std::string_view::npos ? " or " : ", ";
  }
  return error_reply(405, "bad_method", std::move(use));
}

}  // namespace tanbo_server::server::api
