// The server opens its store at start: <data-dir>/tanbo.db, with the durability asked for.
#include <SQLiteCpp/Database.h>

#include <csignal>

#include "server/config.hpp"
#include "tests/server/store/support.hpp"
#include "tests/server/support/child_process.hpp"
#include "tests/server/support/clients.hpp"

using namespace tanbo_server::server;
using namespace std::chrono_literals;

namespace {

ParseOutcome parse_durability(std::vector<std::string_view> args,
                              std::optional<std::string> env = {}) {
  return parse_config(args, [env](const std::string& name) -> std::optional<std::string> {
    return name == "TANBO_DURABILITY" ? env : std::nullopt;
  });
}

}  // namespace

TEST_CASE("the durability flag is normal or full, from the flag or TANBO_DURABILITY",
          "[server][api][config]") {
  SECTION("normal by default") {
    CHECK(std::get<Config>(parse_durability({})).durability == "normal");
  }
  SECTION("the flag sets it") {
    CHECK(std::get<Config>(parse_durability({"--durability", "full"})).durability == "full");
  }
  SECTION("the variable sets it, the flag wins") {
    CHECK(std::get<Config>(parse_durability({}, "full")).durability == "full");
    CHECK(std::get<Config>(parse_durability({"--durability=normal"}, "full")).durability ==
          "normal");
  }
  SECTION("anything else is refused, naming the flag") {
    auto bad = parse_durability({"--durability", "max"});
    auto* err = std::get_if<ConfigError>(&bad);
    REQUIRE(err);
    CHECK_THAT(err->message, Catch::Contains("--durability"));
    CHECK(std::holds_alternative<ConfigError>(parse_durability({}, "fsync")));
  }
  SECTION("the help lists it") { CHECK_THAT(usage(), Catch::Contains("--durability")); }
}

TEST_CASE("tanbo-server opens <data-dir>/tanbo.db at start and serves it",
          "[server][api][binary]") {
  store::testing::TempDir dir;
  const auto data = dir.path() / "data";
  test::ChildProcess p(TANBO_SERVER_BINARY, {"--bind", "127.0.0.1", "--port", "0", "--threads", "1",
                                             "--durability", "full", "--data-dir", data.string()});
  auto line = p.wait_for_line("listening on 127.0.0.1:", 10s);
  REQUIRE(line);
  auto port = static_cast<std::uint16_t>(std::stoi(line->substr(line->rfind(':') + 1)));
  CHECK(std::filesystem::exists(data / "tanbo.db"));
  CHECK(test::http_get(port, "/api/games").status == 200u);
  CHECK(test::http_get(port, "/healthz").status == 200u);
  p.signal(SIGTERM);
  auto status = p.wait(5s);
  REQUIRE(status);
  CHECK(*status == 0);
}

TEST_CASE("tanbo-server refuses a database from a newer server: exit 1, naming the store",
          "[server][api][binary]") {
  store::testing::TempDir dir;
  const auto data = dir.path() / "data";
  std::filesystem::create_directories(data);
  {
    auto db = store::testing::raw(data / "tanbo.db");
    db.exec("PRAGMA user_version = 999");
  }
  test::ChildProcess p(TANBO_SERVER_BINARY,
                       {"--bind", "127.0.0.1", "--port", "0", "--data-dir", data.string()});
  auto status = p.wait(10s);
  REQUIRE(status);
  CHECK(*status == 1);
  CHECK_THAT(p.stderr_text(), Catch::Contains("tanbo.db"));
  CHECK_THAT(p.stderr_text(), Catch::Contains("999"));
}
