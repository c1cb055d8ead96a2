// The browser client's files: content types, `/` as index.html filled in, validators, gzip and
// brotli with Vary and ETags, versioned names kept a year, and no way out of the web directory.
#include "server/net/static_files.hpp"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <thread>

#include "server/net/content_coding.hpp"
#include "server/net/web_page.hpp"

#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"

namespace fs = std::filesystem;
using namespace tanbo_server::server;
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
  return static_files::Site(root).serve(request(http::verb::get, target));
}

// `data` inflated from a gzip member, or "" when it is not one.
std::string gunzip(std::string_view data) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return "";
  std::string out;
  char buf[4096];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  return rc == Z_STREAM_END ? out : "";
}

// A module large enough for compression to pay.
std::string long_module() {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "export const line" + std::to_string(i) + " = 'tanbo';\n";
  return text;
}

// The version in the page's first `/v/<version>/` link.
std::string version_in(std::string_view html) {
  std::smatch m;
  std::string text(html);
  if (!std::regex_search(text, m, std::regex("/v/([0-9a-f]+)/"))) return "";
  return m[1];
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
    auto res = static_files::Site(dir.web()).serve(req);
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
    auto res = static_files::Site(dir.web()).serve(request(http::verb::head, "/app.js"));
    CHECK(res.result() == http::status::ok);
    CHECK(res.body().empty());
    CHECK(res[http::field::content_length] == "20");
  }
  SECTION("other methods are 405") {
    auto res = static_files::Site(dir.web()).serve(request(http::verb::post, "/app.js"));
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

TEST_CASE("web: what a request admits in Accept-Encoding", "[web][static]") {
  using content_coding::accepted;
  CHECK_FALSE(accepted("").gzip);
  CHECK_FALSE(accepted("").br);
  CHECK(accepted("gzip, deflate, br").gzip);
  CHECK(accepted("gzip, deflate, br").br);
  CHECK(accepted("GZIP").gzip);
  CHECK_FALSE(accepted("GZIP").br);
  CHECK_FALSE(accepted("gzip;q=0, br").gzip);
  CHECK(accepted("gzip;q=0, br").br);
  CHECK(accepted("*").gzip);
  CHECK_FALSE(accepted("gzip;q=0, *").gzip);
  CHECK(accepted("gzip;q=0, *").br);
  CHECK(accepted("identity, gzip;q=0.5").gzip);
}

TEST_CASE("web: the page's start-up is found by reading its modules", "[web][static]") {
  SECTION("static imports resolve against the module's folder, lazy ones are left out") {
    auto deps = web_page::static_imports(
        "import {a} from './a.js';\nexport {b} from \"../b.js\";\nimport './c.js';\n"
        "const m = await import('./lazy.js');\nimport x from 'https://cdn/x.js';\n"
        "import y from '../../out.js';\n",
        "boards/index.js");
    CHECK(deps == std::vector<std::string>{"boards/a.js", "b.js", "boards/c.js"});
  }
  SECTION("a word that ends in `from` or `import` is no import") {
    CHECK(web_page::static_imports("const datafrom './x.js'; reimport './y.js'", "app.js").empty());
  }
  SECTION("module scripts and links under the version") {
    std::string html =
        "<html><head><script type=\"module\" src=\"app.js\"></script>"
        "<link rel=\"stylesheet\" href=\"style.css\"><link rel=\"icon\" href=\"data:,\">"
        "<a href=\"#x\">x</a><img src=\"/abs.png\"><link href=\"missing.css\"></head></html>";
    CHECK(web_page::module_scripts(html) == std::vector<std::string>{"app.js"});
    auto out = web_page::prefix_links(html, "/v/abc/",
                                      [](std::string_view p) { return p != "missing.css"; });
    CHECK(out.find("src=\"/v/abc/app.js\"") != std::string::npos);
    CHECK(out.find("href=\"/v/abc/style.css\"") != std::string::npos);
    CHECK(out.find("href=\"data:,\"") != std::string::npos);
    CHECK(out.find("href=\"#x\"") != std::string::npos);
    CHECK(out.find("src=\"/abs.png\"") != std::string::npos);
    CHECK(out.find("href=\"missing.css\"") != std::string::npos);
  }
  SECTION("the reader's language by q-value and base tag") {
    std::vector<std::string> langs{"en", "fr", "ja"};
    CHECK(web_page::pick_language("fr-CA,fr;q=0.9,en;q=0.8", langs, "en") == "fr");
    CHECK(web_page::pick_language("de, ja;q=0.5, en;q=0.4", langs, "en") == "ja");
    CHECK(web_page::pick_language("en;q=0.2, ja", langs, "en") == "ja");
    CHECK(web_page::pick_language("de", langs, "en") == "en");
    CHECK(web_page::pick_language("", langs, "en") == "en");
    CHECK(web_page::pick_language("fr;q=0, ja;q=0.1", langs, "en") == "ja");
  }
  SECTION("<html lang> set or added") {
    CHECK(web_page::set_html_lang("<html lang=\"en\"><head>", "ja") == "<html lang=\"ja\"><head>");
    CHECK(web_page::set_html_lang("<html><head>", "fr") == "<html lang=\"fr\"><head>");
  }
}

// A client much like the page's: index.html loading app.js, which imports two modules, the
// catalogue code and three catalogues.
struct PageDir : WebDir {
  PageDir() {
    fs::create_directories(web() / "i18n");
    write(web() / "index.html",
          "<!doctype html>\n<html lang=\"en\">\n<head>\n"
          "  <link rel=\"stylesheet\" href=\"style.css\">\n"
          "  <script type=\"module\" src=\"app.js\"></script>\n</head>\n<body></body>\n</html>\n");
    write(web() / "app.js",
          "import {t} from './i18n/index.js';\nimport './boards/tanbo.js';\n" + long_module());
    write(web() / "i18n" / "index.js", "export const t = (k) => k;\n");
    for (auto lang : {"en", "fr", "ja"})
      write(web() / "i18n" / (std::string(lang) + ".js"), "export default {};\n");
    write(web() / "sw.js", "self.addEventListener('fetch', () => {});\n");
  }
};

http::request<http::string_body> with(http::request<http::string_body> req, http::field field,
                                      std::string_view value) {
  req.set(field, value);
  return req;
}

TEST_CASE("web: the page names the current version and preloads its start-up", "[web][static]") {
  PageDir dir;
  static_files::Site site(dir.web(), {{"tanbo-games", R"([{"id":"x","name":"</script>"}])"}});
  auto res = site.serve(
      with(request(http::verb::get, "/"), http::field::accept_language, "fr-FR,fr;q=0.9,en;q=0.5"));
  REQUIRE(res.result() == http::status::ok);
  const std::string& html = res.body();
  const std::string v = site.version();
  REQUIRE(v.size() == 12);
  const std::string prefix = "/v/" + v + "/";
  CHECK(html.find("<html lang=\"fr\">") != std::string::npos);
  CHECK(html.find("href=\"" + prefix + "style.css\"") != std::string::npos);
  CHECK(html.find("src=\"" + prefix + "app.js\"") != std::string::npos);
  for (auto module : {"i18n/index.js", "boards/tanbo.js", "i18n/fr.js"})
    CHECK(html.find("<link rel=\"modulepreload\" href=\"" + prefix + module + "\">") !=
          std::string::npos);
  CHECK(html.find("i18n/en.js") == std::string::npos);  // only the reader's language
  CHECK(html.find("i18n/ja.js") == std::string::npos);
  // The data block cannot be ended by what it holds.
  CHECK(
      html.find(
          R"(<script type="application/json" id="tanbo-games">[{"id":"x","name":"<\/script>"}])") !=
      std::string::npos);
  CHECK(html.find("modulepreload") > html.find("tanbo-games"));
  CHECK(res[http::field::vary] == "Accept-Encoding, Accept-Language");
  CHECK(res[http::field::cache_control] == "no-cache");

  SECTION("a reader asking for no known language gets English") {
    auto en = site.serve(with(request(http::verb::get, "/"), http::field::accept_language, "de"));
    CHECK(en.body().find("<link rel=\"modulepreload\" href=\"" + prefix + "i18n/en.js\">") !=
          std::string::npos);
    CHECK(en[http::field::etag] != res[http::field::etag]);
  }
  SECTION("an edited file makes a new version, and the page names it at once") {
    WebDir::write(dir.web() / "style.css", "body{color:green}\n");
    auto again = site.serve(request(http::verb::get, "/"));
    CHECK(site.version() != v);
    CHECK(version_in(again.body()) == site.version());
  }
}

TEST_CASE("web: files are compressed, with Vary and an ETag for each coding", "[web][static]") {
  PageDir dir;
  static_files::Site site(dir.web());
  const std::string original =
      "import {t} from './i18n/index.js';\nimport './boards/tanbo.js';\n" + long_module();
  auto plain = site.serve(request(http::verb::get, "/app.js"));
  auto gz = site.serve(
      with(request(http::verb::get, "/app.js"), http::field::accept_encoding, "gzip, deflate"));
  REQUIRE(plain.result() == http::status::ok);
  REQUIRE(gz.result() == http::status::ok);
  CHECK(plain.body() == original);
  CHECK(plain[http::field::content_encoding].empty());
  CHECK(gz[http::field::content_encoding] == "gzip");
  CHECK(gz.body().size() < original.size() / 4);
  CHECK(gunzip(gz.body()) == original);
  CHECK(std::stoul(std::string(gz[http::field::content_length])) == gz.body().size());
  CHECK(plain[http::field::vary] == "Accept-Encoding");
  CHECK(gz[http::field::vary] == "Accept-Encoding");
  CHECK(plain[http::field::etag] != gz[http::field::etag]);

  SECTION("If-None-Match with the coding's ETag is 304, with the identity's is 200") {
    auto again = with(request(http::verb::get, "/app.js"), http::field::accept_encoding, "gzip");
    auto not_modified = site.serve(with(again, http::field::if_none_match, gz[http::field::etag]));
    CHECK(not_modified.result() == http::status::not_modified);
    CHECK(not_modified.body().empty());
    CHECK(not_modified[http::field::etag] == gz[http::field::etag]);
    CHECK(not_modified[http::field::vary] == "Accept-Encoding");
    auto other = site.serve(with(again, http::field::if_none_match, plain[http::field::etag]));
    CHECK(other.result() == http::status::ok);
    CHECK(other[http::field::content_encoding] == "gzip");
  }
  SECTION("brotli once it is made, gzip until then") {
    auto br_request =
        with(request(http::verb::get, "/app.js"), http::field::accept_encoding, "gzip, br");
    std::string coding;
    for (int i = 0; i < 100 && coding != "br"; ++i) {
      auto res = site.serve(br_request);
      coding = std::string(res[http::field::content_encoding]);
      REQUIRE((coding == "gzip" || coding == "br"));
      if (coding == "br") {
        CHECK(res.body().size() < original.size() / 4);
        CHECK(res[http::field::etag] != gz[http::field::etag]);
      } else {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    CHECK(coding == "br");
  }
  SECTION("a file too small to gain, or not text, is sent as it is") {
    auto css = site.serve(
        with(request(http::verb::get, "/style.css"), http::field::accept_encoding, "gzip"));
    CHECK(css[http::field::content_encoding].empty());
    CHECK(css.body() == "body{}\n");
  }
}

TEST_CASE("web: versioned names are kept a year, other versions sent to the current one",
          "[web][static]") {
  PageDir dir;
  static_files::Site site(dir.web());
  const std::string v = site.version();
  auto versioned = site.serve(request(http::verb::get, "/v/" + v + "/boards/tanbo.js"));
  REQUIRE(versioned.result() == http::status::ok);
  CHECK(versioned.body() == "export {};\n");
  CHECK(versioned[http::field::cache_control] == "public, max-age=31536000, immutable");
  CHECK(site.serve(request(http::verb::get, "/boards/tanbo.js"))[http::field::cache_control] ==
        "no-cache");

  SECTION("another version's name is a redirect to the current one, never kept") {
    auto old = site.serve(request(http::verb::get, "/v/0123456789ab/boards/tanbo.js?x=1"));
    CHECK(old.result() == http::status::found);
    CHECK(old[http::field::location] == "/v/" + v + "/boards/tanbo.js?x=1");
    CHECK(old[http::field::cache_control] == "no-store");
  }
  SECTION("a file changed under the current version moves the version on") {
    WebDir::write(dir.web() / "boards" / "tanbo.js", "export const changed = true;\n");
    auto res = site.serve(request(http::verb::get, "/v/" + v + "/boards/tanbo.js"));
    CHECK(res.result() == http::status::found);
    CHECK(site.version() != v);
    auto moved = site.serve(request(http::verb::get, std::string(res[http::field::location])));
    CHECK(moved.result() == http::status::ok);
    CHECK(moved.body() == "export const changed = true;\n");
  }
  SECTION("a malformed version, a missing file or a way out is a 404") {
    for (const std::string& target :
         std::vector<std::string>{"/v/", "/v/" + v, "/v/XYZ/app.js", "/v/" + v + "/nope.js",
                                  "/v/" + v + "/../secret.txt", "/v/" + v + "/.hidden"}) {
      INFO(target);
      CHECK(site.serve(request(http::verb::get, target)).result() == http::status::not_found);
    }
  }
  SECTION("the service worker may take the whole site as its scope") {
    auto sw = site.serve(request(http::verb::get, "/v/" + v + "/sw.js"));
    CHECK(sw["Service-Worker-Allowed"] == "/");
    CHECK(site.serve(request(http::verb::get, "/app.js"))["Service-Worker-Allowed"].empty());
  }
}

TEST_CASE("web: compressed and versioned answers over loopback", "[web][static]") {
  PageDir dir;
  auto config = test::loopback_config();
  config.web_dir = dir.web();
  test::InProcessServer fx(config);
  auto page = test::http_exchange(fx.port(), "GET", "/", {{"Accept-Encoding", "gzip"}});
  REQUIRE(page.status == 200u);
  CHECK(page.headers["content-encoding"] == "gzip");
  CHECK(page.headers["vary"] == "Accept-Encoding, Accept-Language");
  const std::string html = gunzip(page.body);
  const std::string v = version_in(html);
  REQUIRE(v.size() == 12);
  // The registry of games rides in the page.
  CHECK(html.find("<script type=\"application/json\" id=\"tanbo-games\">[{") != std::string::npos);
  // Security headers stay on every kind of answer.
  CHECK_FALSE(page.headers["content-security-policy"].empty());

  auto app = test::http_exchange(fx.port(), "GET", "/v/" + v + "/app.js",
                                 {{"Accept-Encoding", "gzip, deflate"}});
  REQUIRE(app.status == 200u);
  CHECK(app.headers["content-encoding"] == "gzip");
  CHECK(app.headers["vary"] == "Accept-Encoding");
  CHECK(app.headers["cache-control"] == "public, max-age=31536000, immutable");
  CHECK(gunzip(app.body).starts_with("import {t} from './i18n/index.js';"));
  const std::string tag = app.headers["etag"];
  REQUIRE_FALSE(tag.empty());

  auto again = test::http_exchange(fx.port(), "GET", "/v/" + v + "/app.js",
                                   {{"Accept-Encoding", "gzip"}, {"If-None-Match", tag}});
  CHECK(again.status == 304u);
  CHECK(again.body.empty());
  CHECK(again.headers["etag"] == tag);
  CHECK_FALSE(again.headers["content-security-policy"].empty());

  auto old = test::http_exchange(fx.port(), "GET", "/v/000000000000/app.js", {});
  CHECK(old.status == 302u);
  CHECK(old.headers["location"] == "/v/" + v + "/app.js");
  CHECK(test::http_exchange(fx.port(), "GET", "/v/nope/app.js", {}).status == 404u);
}
