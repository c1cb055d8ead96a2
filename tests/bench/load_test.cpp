// tanbo-load against a real tanbo-server process over real sockets.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using nlohmann::json;
using namespace std::chrono_literals;
namespace fs = std::filesystem;

struct TempDir {
  fs::path path =
      fs::temp_directory_path() / ("tanbo-load-test-" + std::to_string(std::random_device{}()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The server as a child process, its log in a file (a pipe nobody reads would stall it).
class Server {
 public:
  Server(const fs::path& dir, std::vector<std::string> extra) : log_(dir / "server.log") {
    std::vector<std::string> args = {TANBO_SERVER_BINARY,
                                     "--bind",
                                     "127.0.0.1",
                                     "--port",
                                     "0",
                                     "--threads",
                                     "1",
                                     "--data-dir",
                                     (dir / "data").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<char*> env;
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "TANBO_", 6) != 0) env.push_back(*e);
    env.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), env.data());
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
  }
  ~Server() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
      if (waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(50ms);
    }
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }
  std::string log() const {
    std::ifstream in(log_);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  // The port the log announces, once the server listens.
  std::optional<int> port(std::chrono::milliseconds timeout) const {
    constexpr std::string_view needle = "listening on 127.0.0.1:";
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (std::chrono::steady_clock::now() < deadline) {
      std::string text = log();
      if (auto at = text.find(needle); at != std::string::npos)
        return std::atoi(text.c_str() + at + needle.size());
      std::this_thread::sleep_for(20ms);
    }
    return std::nullopt;
  }

 private:
  fs::path log_;
  pid_t pid_ = -1;
};

// One HTTP/1.1 GET on a fresh connection; nullopt when nothing answers within 5 s.
std::optional<std::pair<int, std::string>> http_get(int port, const std::string& path) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return std::nullopt;
  timeval tv{5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(std::uint16_t(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  std::string reply;
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (send(fd, req.data(), req.size(), 0) == ssize_t(req.size())) {
      char buf[4096];
      for (ssize_t n; (n = recv(fd, buf, sizeof buf, 0)) > 0;) reply.append(buf, std::size_t(n));
    }
  }
  close(fd);
  if (!reply.starts_with("HTTP/1.1 ")) return std::nullopt;
  auto body = reply.find("\r\n\r\n");
  return std::pair{std::atoi(reply.c_str() + 9),
                   body == std::string::npos ? "" : reply.substr(body + 4)};
}

// The value of a Prometheus counter, its series summed; nullopt when the text has none.
std::optional<double> counter(const std::string& text, std::string_view name) {
  std::istringstream in(text);
  std::optional<double> sum;
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with(name) || line.size() == name.size()) continue;
    char next = line[name.size()];
    if (next != ' ' && next != '{') continue;
    sum = sum.value_or(0) + std::stod(line.substr(line.rfind(' ') + 1));
  }
  return sum;
}

std::optional<double> metric(int port, const std::string& name) {
  auto reply = http_get(port, "/metrics");
  if (!reply || reply->first != 200) return std::nullopt;
  return counter(reply->second, name);
}

// Runs tanbo-load with `args`; its exit status and standard output.
std::pair<int, std::string> run_load(const std::string& args) {
  std::string cmd = std::string(TANBO_LOAD_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("popen failed");
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The JSON object tanbo-load prints: its last line (progress goes to stderr, before it).
json report_of(const std::string& out) {
  auto start = out.rfind("\n{");
  return json::parse(start == std::string::npos ? out : out.substr(start + 1));
}

}  // namespace

TEST_CASE("tanbo-load plays 10 rooms for 3 s with no error and counts that add up",
          "[load][bench]") {
  const int spectators = GENERATE(1, 0);
  const int connections = 10 * (2 + spectators);
  INFO(spectators << " spectator(s) per room");
  TempDir dir;
  // Moves cost no rate; the rematches and joins of a fast loop would still meet the default.
  Server server(dir.path, {"--rate", "100000", "--rate-burst", "100000"});
  auto port = server.port(10s);
  REQUIRE(port);
  auto accepted_before = metric(*port, "tanbo_actions_accepted_total");
  auto in_before = metric(*port, "tanbo_messages_in_total");

  const std::string url = "ws://127.0.0.1:" + std::to_string(*port) + "/ws";
  auto [status, out] =
      run_load("--url " + url + " --rooms 10 --spectators-per-room " + std::to_string(spectators) +
               " --duration 3" + " --server-pid " + std::to_string(server.pid()));
  INFO(out);
  REQUIRE(status == 0);
  json r = report_of(out);
  CHECK(r["urls"] == json::array({url}));
  auto accepted = r["actions"]["accepted"].get<std::uint64_t>();
  auto finished = r["games"]["finished"].get<std::uint64_t>();

  // One run, several consequences: every connection opened and every room played, no error.
  {
    CHECK(r["connections"]["open_at_start"] == connections);
    CHECK(r["connections"]["open_at_end"] == connections);
    CHECK(r["connections"]["connect_failed"] == 0);
    CHECK(r["connections"]["closed_by_server"] == 0);
    CHECK(r["rooms"]["started"] == 10);
    CHECK(r["errors"].empty());
    CHECK(r["actions"]["refused"] == 0);
    CHECK(r["unreadable"] == 0);
    CHECK(finished > 0);  // rematches keep the rooms busy
  }
  // Every action sent was accepted, and each moved its room one version.
  {
    CHECK(accepted > 0);
    CHECK(r["actions"]["unresolved"] == 0);
    CHECK(r["actions"]["drained"] == true);
    CHECK(r["games"]["versions"].get<std::uint64_t>() ==
          r["games"]["started"].get<std::uint64_t>() + accepted);
  }
  // The figures are filled in.
  {
    CHECK(r["actions"]["accepted_per_s"].get<double>() > 0);
    CHECK(r["latency_ms"]["player"]["samples"].get<int>() > 0);
    if (spectators > 0) CHECK(r["latency_ms"]["last_spectator"]["samples"].get<int>() > 0);
    CHECK(r["latency_ms"]["player"]["p99"].get<double>() <=
          r["latency_ms"]["player"]["max"].get<double>());
    CHECK(r["received"]["messages_per_s"].get<double>() > 0);
    CHECK(r["server"]["rss_end_kib"].get<int>() > 0);
    CHECK(r["server"].contains("cpu_percent"));
  }
  // The server counted the same accepted actions, and nothing else was sent but the set-up (a
  // hello and a create or join per connection) and one rematch per player and finished game: a
  // load generator that sends more measures its own chatter.
  {
    auto accepted_after = metric(*port, "tanbo_actions_accepted_total");
    auto in_after = metric(*port, "tanbo_messages_in_total");
    REQUIRE(accepted_before);
    REQUIRE(accepted_after);
    CHECK(*accepted_after - *accepted_before == double(accepted));
    REQUIRE(in_before);
    REQUIRE(in_after);
    double sent = *in_after - *in_before;
    CHECK(sent >= double(accepted + 2 * connections));
    CHECK(sent <= double(accepted + 2 * connections + 2 * finished));
  }
}

// docs/operations.md, "Compression": the same play, once plain and once with the compression a
// browser asks for; what came over the wire (the load generator's reads) against the JSON it read.
TEST_CASE("tanbo-load --deflate: the states arrive whole in a fraction of their bytes",
          "[load][bench][compression]") {
  TempDir dir;
  Server server(dir.path, {"--rate", "100000", "--rate-burst", "100000"});
  auto port = server.port(10s);
  REQUIRE(port);
  const std::string base = "--url ws://127.0.0.1:" + std::to_string(*port) +
                           "/ws --rooms 5 --spectators-per-room 3 --duration 2";
  auto figures = [&](const std::string& extra) {
    auto [status, out] = run_load(base + extra);
    INFO(out);
    REQUIRE(status == 0);
    json r = report_of(out);
    CHECK(r["errors"].empty());
    CHECK(r["unreadable"] == 0);
    CHECK(r["actions"]["accepted"].get<std::uint64_t>() > 0);
    return std::pair{r["received"]["bytes_per_s"].get<double>(),
                     r["received"]["wire_bytes_per_s"].get<double>()};
  };
  auto [json_plain, wire_plain] = figures("");
  auto [json_deflated, wire_deflated] = figures(" --deflate");
  // Plain: the wire carries the JSON and its frame headers. Deflated: well under half of it (a
  // fifth or less when measured; docs/performance.md).
  CHECK(wire_plain >= json_plain);
  CHECK(wire_deflated < 0.4 * json_deflated);
}

// docs/protocol.md, "act": a request without an id is answered by what it causes alone. Acting
// so, a player reads one frame fewer per move (the state, no `ok`), and nothing is refused.
TEST_CASE("tanbo-load --acts-without-id: the state alone answers each move", "[load][bench]") {
  TempDir dir;
  Server server(dir.path, {"--rate", "100000", "--rate-burst", "100000"});
  auto port = server.port(10s);
  REQUIRE(port);
  const std::string base = "--url ws://127.0.0.1:" + std::to_string(*port) +
                           "/ws --rooms 5 --spectators-per-room 3 --duration 2";
  // Frames read per accepted move, over the whole run (set-up included, a small part of it).
  auto frames_per_move = [&](const std::string& extra) {
    auto [status, out] = run_load(base + extra);
    INFO(out);
    REQUIRE(status == 0);
    json r = report_of(out);
    CHECK(r["errors"].empty());
    CHECK(r["unreadable"] == 0);
    CHECK(r["actions"]["refused"] == 0);
    CHECK(r["actions"]["unresolved"] == 0);
    const auto accepted = r["actions"]["accepted"].get<std::uint64_t>();
    REQUIRE(accepted > 100);
    return double(r["received"]["messages_total"].get<std::uint64_t>()) / double(accepted);
  };
  const double with_ids = frames_per_move("");
  const double without = frames_per_move(" --acts-without-id");
  // Five members read each state; the mover also read its `ok`, one frame more per move.
  CHECK(with_ids == Approx(6).margin(0.5));
  CHECK(without == Approx(5).margin(0.5));
  CHECK(with_ids - without == Approx(1).margin(0.2));
}

TEST_CASE("tanbo-load idles connections in the lobby and reports the server's memory",
          "[load][bench]") {
  TempDir dir;
  Server server(dir.path, {});
  auto port = server.port(10s);
  REQUIRE(port);
  auto [status, out] =
      run_load("--url ws://127.0.0.1:" + std::to_string(*port) +
               "/ws --idle 50 --duration 0.5 --server-pid " + std::to_string(server.pid()));
  INFO(out);
  REQUIRE(status == 0);
  json r = report_of(out);
  CHECK(r["connections"]["open_at_end"] == 50);
  CHECK(r["errors"].empty());
  CHECK(r["server"]["rss_end_kib"].get<int>() >= r["server"]["rss_before_kib"].get<int>());
  CHECK(r["server"].contains("rss_per_connection_kib"));
}

TEST_CASE("tanbo-load --seek: seekers are paired, play and seek again", "[load][bench][pairing]") {
  TempDir dir;
  // Each seek costs rate (moves do not), and the seekers' short games end as fast as the server
  // plays them: at the default 10 a second, a fast build's quickest seekers were refused seeks.
  Server server(dir.path, {"--pool-wave-ms", "200", "--rate", "100000", "--rate-burst", "100000"});
  auto port = server.port(10s);
  REQUIRE(port);
  auto [status, out] =
      run_load("--url ws://127.0.0.1:" + std::to_string(*port) +
               "/ws --seek 20 --duration 3 --game tsoro --options " + "'{\"columns\":6}'");
  INFO(out);
  REQUIRE(status == 0);
  json r = report_of(out);
  CHECK(r["errors"].empty());
  CHECK(r["seek"]["seekers"] == 20);
  CHECK(r["seek"]["pairings"].get<int>() >= 20);  // each seeker at least once
  CHECK(r["seek"]["games_finished"].get<int>() > 0);
  CHECK(r["seek"]["seek_to_paired_ms"]["samples"].get<int>() > 0);
}

TEST_CASE("tanbo-load refuses a server that is not on this machine", "[load][bench]") {
  {
    auto [status, out] = run_load("--url ws://192.0.2.1:8080/ws --rooms 1");
    CHECK(status == 2);
    CHECK_THAT(out, Catch::Contains("not a loopback address"));
  }
  // Nor one among several nodes: it is named, and nothing is loaded.
  {
    auto [status, out] = run_load(
        "--url ws://127.0.0.1:1/ws --url ws://192.0.2.1:8080/ws --url ws://127.0.0.1:2/ws "
        "--rooms 3");
    CHECK(status == 2);
    CHECK_THAT(out, Catch::Contains("192.0.2.1 is not a loopback address"));
  }
}
