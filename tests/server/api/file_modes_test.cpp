// What only the server's user may read (docs/operations.md, "Data directory and backups",
// "Moderation"), on a real server process: a fresh data directory 0700 and its database, WAL and
// shared memory 0600 whatever the umask; an exposed directory or database warned about; an admin
// token file others may write refused at the start, one they may read warned about.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/server/recovery/server_process.hpp"

using namespace tanbo_server::server::test;
namespace fs = std::filesystem;

namespace {

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Runs `fn` with the process's umask set to `mask`, as an operator's shell might have it.
template <class Fn>
void with_umask(mode_t mask, Fn fn) {
  const mode_t before = ::umask(mask);
  try {
    fn();
  } catch (...) {
    ::umask(before);
    throw;
  }
  ::umask(before);
}

bool logs(const ServerProcess& server, const std::string& needle) {
  return server.log().find(needle) != std::string::npos;
}

}  // namespace

TEST_CASE("a fresh data directory is 0700, the database and its WAL and SHM 0600",
          "[server][api][modes]") {
  DataDir dir;
  // The laxest umask: the server alone decides the modes.
  with_umask(0, [&] {
    ServerProcess server(dir);
    ProtocolClient c(server.port());
    c.hello("Ana");  // a guest identity: a write, so the WAL holds something
    c.send({{"type", "create"}, {"id", 1}, {"game", "tsoro"}});
    c.expect("created");
    CHECK(mode_of(dir.path) == 0700);
    CHECK(mode_of(dir.db()) == 0600);
    CHECK(mode_of(dir.path / "tanbo.db-wal") == 0600);
    CHECK(mode_of(dir.path / "tanbo.db-shm") == 0600);
    CHECK_FALSE(logs(server, "chmod"));
  });
}

TEST_CASE("an existing data directory or database others may read is warned about, kept as is",
          "[server][api][modes]") {
  DataDir dir;
  {
    ServerProcess first(dir);
    CHECK(first.terminate() == 0);
  }
  fs::permissions(dir.path, fs::perms(0755));
  fs::permissions(dir.db(), fs::perms(0644));
  ServerProcess server(dir);
  CHECK(logs(server, "warning data dir " + dir.path.string()));
  CHECK(logs(server, "data dir " + dir.path.string()));
  CHECK(logs(server, "chmod 700 " + dir.path.string()));
  CHECK(logs(server, "database " + dir.db().string()));
  CHECK(logs(server, "chmod 600 " + dir.db().string()));
  CHECK(mode_of(dir.path) == 0755);  // the operator's to change
  CHECK(mode_of(dir.db()) == 0644);
}

TEST_CASE("the admin token file: refused when others may write it, warned when they may read it",
          "[server][api][admin][modes]") {
  DataDir dir;
  DataDir secrets;
  fs::create_directories(secrets.path);
  const auto token_file = secrets.path / "admin-token";
  std::ofstream(token_file) << "s3cret-operator-token-0123456789\n";
  SECTION("0666: the server does not start, and says what to run") {
    fs::permissions(token_file, fs::perms(0666));
    ChildProcess process(TANBO_SERVER_BINARY,
                         {"--bind", "127.0.0.1", "--port", "0", "--data-dir", dir.path.string(),
                          "--admin-token-file", token_file.string()});
    CHECK(process.wait(std::chrono::seconds(20)) == 2);
    CHECK_THAT(process.stderr_text(), Catch::Contains(token_file.string()) &&
                                          Catch::Contains("chmod 600 " + token_file.string()));
    CHECK_FALSE(fs::exists(dir.db()));  // refused before anything was opened
  }
  SECTION("a directory in its place is refused too") {
    fs::remove(token_file);
    fs::create_directories(token_file);
    ChildProcess process(TANBO_SERVER_BINARY,
                         {"--bind", "127.0.0.1", "--port", "0", "--data-dir", dir.path.string(),
                          "--admin-token-file", token_file.string()});
    CHECK(process.wait(std::chrono::seconds(20)) == 2);
    CHECK_THAT(process.stderr_text(), Catch::Contains("not a regular file"));
  }
  SECTION("0644: it starts, with a warning") {
    fs::permissions(token_file, fs::perms(0644));
    ServerProcess server(dir, {"--admin-token-file", token_file.string()});
    CHECK(logs(server, "warning --admin-token-file " + token_file.string()));
    CHECK(logs(server, "chmod 600 " + token_file.string()));
  }
  SECTION("0600: it starts without a word about it") {
    fs::permissions(token_file, fs::perms(0600));
    ServerProcess server(dir, {"--admin-token-file", token_file.string()});
    CHECK_FALSE(logs(server, "admin-token-file"));
  }
}
