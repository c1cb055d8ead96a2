// protocol/openapi.json and the server's routes (server/api/routes.hpp), both ways: every route
// and method the server answers is an operation of the file and every operation a route; any
// other method of a route is 405, any other path 404, each in the documented error shape; every
// example of an answer passes the answer's schema.
#include <catch2/catch.hpp>

#include "server/api/routes.hpp"
#include "tests/server/api/openapi_support.hpp"
#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using namespace tanbo_server::server::test::openapi;
using nlohmann::json;

namespace {

constexpr const char* kEveryMethod[] = {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"};

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A path of the route, each `{name}` a plain segment.
std::string sample_path(std::string_view route) {
  std::string out(route);
  for (auto open = out.find('{'); open != std::string::npos; open = out.find('{'))
    out.replace(open, out.find('}', open) - open + 1, "x1");
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  return all;
}

}  // namespace

TEST_CASE("the server's routes are the operations of protocol/openapi.json",
          "[server][api][openapi]") {
  std::set<Operation> routed;
  for (const api::Route& r : api::kRoutes)
    for (const char* method : kEveryMethod)
      if (api::allows(r, method)) routed.emplace(lower(method), std::string(r.path));
  const std::set<Operation> documented = operations();
  std::vector<std::string> undocumented, unrouted;
  for (const auto& [method, path] : routed)
    if (!documented.count({method, path})) undocumented.push_back(method + " " + path);
  for (const auto& [method, path] : documented)
    if (!routed.count({method, path})) unrouted.push_back(method + " " + path);
  INFO("routed, not in the file:\n" << joined(undocumented));
  INFO("in the file, not routed:\n" << joined(unrouted));
  CHECK(undocumented.empty());
  CHECK(unrouted.empty());
  CHECK(routed.size() > 40);
}

TEST_CASE("every example of an answer in protocol/openapi.json passes its schema",
          "[server][api][openapi]") {
  INFO(joined(spec().problems));
  REQUIRE(spec().problems.empty());
  int checked = 0;
  for (const auto& op : operations())
    for (const auto& [status, r] : spec().doc["paths"][op.second][op.first]["responses"].items()) {
      const json contents = deref(r).value("content", json::object());
      for (const auto& [media, content] : contents.items()) {
        std::vector<json> examples;
        if (content.contains("example")) examples.push_back(content["example"]);
        const json named = content.value("examples", json::object());
        for (const auto& [name, e] : named.items()) examples.push_back(e.at("value"));
        INFO(op.first << " " << op.second << " " << status << " " << media);
        CHECK_FALSE(examples.empty());
        for (const auto& e : examples) {
          const std::string body = e.is_string() && media.find("json") == std::string::npos
                                       ? e.get<std::string>()
                                       : e.dump();
          auto problems = body_problems(op, std::stoi(status), media, body);
          INFO(e.dump() << "\n" << joined(problems));
          CHECK(problems.empty());
          ++checked;
        }
      }
    }
  CHECK(checked > 50);
}

TEST_CASE("a route answers its methods only, and a path of no route is 404",
          "[server][api][openapi]") {
  DataDir dir;
  ServerProcess server(dir);
  for (const api::Route& r : api::kRoutes)
    for (const char* method : kEveryMethod) {
      if (api::allows(r, method)) continue;
      const std::string path = sample_path(r.path);
      auto reply = http_exchange(server.port(), method, path, {});
      INFO(method << " " << path << " -> " << reply.status << " " << reply.body);
      CHECK(reply.status == 405);
      if (std::string_view(method) == "HEAD") continue;
      CHECK(json::parse(reply.body).at("error").at("code") == "bad_method");
      const std::string message = json::parse(reply.body).at("error").at("message");
      CHECK(message.starts_with("use "));
      for (std::string_view rest = r.methods; !rest.empty();) {
        const auto space = rest.find(' ');
        CHECK_THAT(message, Catch::Contains(std::string(rest.substr(0, space))));
        rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
      }
    }
  for (const char* path : {"/api", "/api/", "/api/nonesuch", "/api/games/x1/steps/more"}) {
    auto reply = http_request(server.port(), "GET", path);
    INFO(path << " -> " << reply.body);
    CHECK(reply.status == 404);
    CHECK(json::parse(reply.body).at("error").at("code") == "not_found");
  }
}
