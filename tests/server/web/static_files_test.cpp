// The browser client's files: content types, `/` as index.html, validators, and no way out of
// the web directory.
#include "server/net/static_files.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"

namespace fs = std::filesystem;
using namespace tanbo::server;
using nlohmann::json;

namespace {

// A fresh directory tree: root/web holds the client, root/secret.txt lies just outside it.
struct WebDir {
  WebDir() {
    std::random_device rd;
    root = fs::temp_directory_path() / ("tanbo-web-test-" + std::to_string(rd()));
    fs::create_directories(web() / "boards");
    write(web() / "index.html", "<!doctype html><title>Tanbo</title>");
    write(web() / "app.js", "export const x = 1;\n");
    write(web() / "style.css", "body{}\n");
    write(web() / "boards" / "tanbo.js", "export {};\n");
    write(web() / ".hidden", "hidden\n");
    write(root / "secret.txt", "secret\n");
  }
  ~WebDir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  fs::path web() const { return root / "web"; }
  static void write(const fs::path& p, std::string_view text) { std::ofstream(p) << text; }
  fs::path root;
};

http::request<http::string_body> request(http::verb verb, std::string_view target) {
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "localhost");
  return req;
}

auto get(const fs::path& root, std::string_view target) {
  return static_files::serve(request(http::verb::get, target), root);
}

std::string error_code_of(const http::response<http::string_body>& res) {
  return json::parse(res.body()).at("error").at("code").get<std::string>();
}

}  // namespace

TEST_CASE("web: files are served with the content type of their extension", "[web][static]") {
  CHECK(static_files::content_type("index.html") == "text/html; charset=utf-8");
  CHECK(static_files::content_type("app.js") == "text/javascript; charset=utf-8");
  CHECK(static_files::content_type("lobby.mjs") == "text/javascript; charset=utf-8");
  CHECK(static_files::content_type("style.css") == "text/css; charset=utf-8");
  CHECK(static_files::content_type("rice.svg") == "image/svg+xml");
  CHECK(static_files::content_type("icon.png") == "image/png");
  CHECK(static_files::content_type("Makefile") == "application/octet-stream");
  CHECK(static_files::content_type("archive.tar.gz") == "application/octet-stream");
}

TEST_CASE("web: a path that would leave the web directory names no file", "[web][static]") {
  const fs::path root = "/srv/web";
  SECTION("/ is index.html and plain paths map below the root") {
    CHECK(static_files::resolve(root, "/") == root / "index.html");
    CHECK(static_files::resolve(root, "/app.js") == root / "app.js");
    CHECK(static_files::resolve(root, "/boards/tanbo.js") == root / "boards" / "tanbo.js");
    CHECK(static_files::resolve(root, "/a%20b.js") == root / "a b.js");
  }
  SECTION("dot segments, plain or percent-encoded, are refused") {
    CHECK_FALSE(static_files::resolve(root, "/../secret.txt"));
    CHECK_FALSE(static_files::resolve(root, "/boards/../../secret.txt"));
    CHECK_FALSE(static_files::resolve(root, "/%2e%2e/secret.txt"));
    CHECK_FALSE(static_files::resolve(root, "/%2E%2E%2Fsecret.txt"));
    CHECK_FALSE(static_files::resolve(root, "/./app.js"));
    CHECK_FALSE(static_files::resolve(root, "/.git/config"));
  }
  SECTION("backslashes, NULs, control characters and bad escapes are refused") {
    CHECK_FALSE(static_files::resolve(root, "/..\\secret.txt"));
    CHECK_FALSE(static_files::resolve(root, "/app.js%00.html"));
    CHECK_FALSE(static_files::resolve(root, "/app%0a.js"));
    CHECK_FALSE(static_files::resolve(root, "/app%zz.js"));
    CHECK_FALSE(static_files::resolve(root, "/app.js%2"));
  }
  SECTION("empty segments, trailing slashes and relative targets name no file") {
    CHECK_FALSE(static_files::resolve(root, "//etc/passwd"));
    CHECK_FALSE(static_files::resolve(root, "/boards/"));
    CHECK_FALSE(static_files::resolve(root, "app.js"));
    CHECK_FALSE(static_files::resolve(root, ""));
  }
}

TEST_CASE("web: serve answers files, validators and refusals", "[web][static]") {
  WebDir dir;
  SECTION("/ is index.html, revalidated on every use") {
    auto res = get(dir.web(), "/");
    REQUIRE(res.result() == http::status::ok);
    CHECK(res[http::field::content_type] == "text/html; charset=utf-8");
    CHECK(res.body() == "<!doctype html><title>Tanbo</title>");
    CHECK(res[http::field::cache_control] == "no-cache");
    CHECK_FALSE(res[http::field::etag].empty());
    CHECK(res["X-Content-Type-Options"] == "nosniff");
  }
  SECTION("a query string does not change the file") {
    CHECK(get(dir.web(), "/app.js?v=3").body() == "export const x = 1;\n");
  }
  SECTION("a file in a subfolder is found") {
    auto res = get(dir.web(), "/boards/tanbo.js");
    CHECK(res.result() == http::status::ok);
    CHECK(res[http::field::content_type] == "text/javascript; charset=utf-8");
  }
  SECTION("If-None-Match with the current ETag is 304 without a body") {
    auto tag = std::string(get(dir.web(), "/style.css")[http::field::etag]);
    auto req = request(http::verb::get, "/style.css");
    req.set(http::field::if_none_match, tag);
    auto res = static_files::serve(req, dir.web());
    CHECK(res.result() == http::status::not_modified);
    CHECK(res.body().empty());
    CHECK(res[http::field::etag] == tag);
  }
  SECTION("the ETag changes when the file does") {
    auto before = std::string(get(dir.web(), "/style.css")[http::field::etag]);
    WebDir::write(dir.web() / "style.css", "body{color:red}\n");
    CHECK(get(dir.web(), "/style.css")[http::field::etag] != before);
  }
  SECTION("HEAD has the GET's headers and no body") {
    auto res = static_files::serve(request(http::verb::head, "/app.js"), dir.web());
    CHECK(res.result() == http::status::ok);
    CHECK(res.body().empty());
    CHECK(res[http::field::content_length] == "20");
  }
  SECTION("other methods are 405") {
    auto res = static_files::serve(request(http::verb::post, "/app.js"), dir.web());
    CHECK(res.result() == http::status::method_not_allowed);
    CHECK(error_code_of(res) == "bad_method");
  }
  SECTION("a missing file, a folder, a dot file or a way out is a JSON 404") {
    for (auto target :
         {"/nope.js", "/boards", "/.hidden", "/../secret.txt", "/%2e%2e/secret.txt"}) {
      auto res = get(dir.web(), target);
      INFO(target);
      CHECK(res.result() == http::status::not_found);
      CHECK(res[http::field::content_type] == "application/json");
      CHECK(error_code_of(res) == "not_found");
      CHECK(res.body().find("secret\n") == std::string::npos);  // the file is never read
    }
  }
  SECTION("a symlink leading out of the web directory is a 404") {
    std::error_code ec;
    fs::create_symlink(dir.root / "secret.txt", dir.web() / "link.txt", ec);
    REQUIRE_FALSE(ec);
    CHECK(get(dir.web(), "/link.txt").result() == http::status::not_found);
  }
  SECTION("without a web directory `/` is a 404 naming the flag") {
    auto res = get(dir.root / "missing", "/");
    CHECK(res.result() == http::status::not_found);
    CHECK(error_code_of(res) == "not_found");
    CHECK(res.body().find("--web-dir") != std::string::npos);
  }
}

TEST_CASE("web: the server serves the client at / and keeps its other routes first",
          "[web][static]") {
  WebDir dir;
  auto config = test::loopback_config();
  config.web_dir = dir.web();
  test::InProcessServer fx(config);
  SECTION("/ is the page") {
    auto res = test::http_get(fx.port(), "/");
    CHECK(res.status == 200u);
    CHECK(res.content_type == "text/html; charset=utf-8");
    CHECK(res.body.find("<title>Tanbo</title>") != std::string::npos);
  }
  SECTION("/healthz and /ws are not files") {
    CHECK(test::http_get(fx.port(), "/healthz").content_type == "application/json");
    CHECK(test::http_get(fx.port(), "/ws").status == 426u);
  }
  SECTION("a raw `..` in the request target does not leave the directory") {
    auto res = test::http_get(fx.port(), "/../secret.txt");
    CHECK(res.status == 404u);
    CHECK(res.body.find("secret\n") == std::string::npos);
  }
}
