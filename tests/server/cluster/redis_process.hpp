#pragma once
// A throwaway redis-server on a free loopback port, persisting nothing, in a temporary directory;
// and the cluster's nodes as tanbo-server processes pointed at it.
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "server/cluster/redis.hpp"
#include "tests/server/recovery/server_process.hpp"
#include "tests/support/missing.hpp"

namespace tanbo_server::server::test {

inline const std::string kNoRedis =
    "redis-server is not installed (tools/install-deps.sh --test, or apt-get install redis-server)";

// The redis-server on PATH (or Debian's), or empty when none is installed.
inline std::string find_redis_server() {
  std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  std::stringstream dirs(path + ":/usr/bin:/usr/sbin:/usr/local/bin");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && ::access((dir + "/redis-server").c_str(), X_OK) == 0)
      return dir + "/redis-server";
  return {};
}

// A port the kernel just said is free (bound, then released: a small race the tests accept).
inline std::uint16_t free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
    throw std::runtime_error("no free port");
  ::close(fd);
  return ntohs(a.sin_port);
}

class RedisProcess {
 public:
  explicit RedisProcess(std::string binary) : binary_(std::move(binary)), port_(free_port()) {
    std::filesystem::create_directories(dir_.path);
    start();
  }
  ~RedisProcess() { stop(); }

  // SIGSTOP, then SIGCONT: a stalled Redis keeps its connections open and answers nothing.
  void freeze() { REQUIRE(process_->freeze()); }
  void thaw() { process_->signal(SIGCONT); }
  // A restart on the same port, empty: nothing was saved.
  void restart() {
    stop();
    start();
  }
  // Stopped for `how_long`, then started again on the same port, empty.
  void down_for(std::chrono::milliseconds how_long) {
    stop();
    std::this_thread::sleep_for(how_long);
    start();
  }
  std::uint16_t port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  // A fresh connection of the test's own.
  cluster::RedisReply command(const std::vector<std::string>& args) const {
    cluster::RedisConnection c({"127.0.0.1", port_});
    if (!c.connect()) throw std::runtime_error(c.last_error());
    return c.command(args);
  }

 private:
  void start() {
    process_ = std::make_unique<ChildProcess>(
        binary_,
        std::vector<std::string>{"--port", std::to_string(port_), "--bind", "127.0.0.1", "--save",
                                 "", "--appendonly", "no", "--dir", dir_.path.string()});
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
      cluster::RedisConnection probe({"127.0.0.1", port_});
      if (probe.connect() && probe.command({"PING"}).text() == "PONG") return;
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("redis-server did not start: " + probe.last_error());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  void stop() {
    process_->signal(SIGKILL);
    process_->wait(std::chrono::seconds(5));
  }

  std::string binary_;
  DataDir dir_;
  std::uint16_t port_;
  std::unique_ptr<ChildProcess> process_;
};

// The tanbo-server the cluster tests start: the one built beside them, or TANBO_TEST_SERVER (say,
// a sanitized build of it).
inline std::string server_binary() {
  const char* other = std::getenv("TANBO_TEST_SERVER");
  return other && *other ? other : TANBO_SERVER_BINARY;
}

// One node: its own data directory, the cluster's Redis, a short lease so expiry tests are quick.
class Node {
 public:
  // `store`: the cluster's shared store (a PostgreSQL URL); empty: a SQLite file of its own.
  // `extra`: more flags, after the others (a later flag wins).
  Node(const RedisProcess& redis, const std::string& id, std::chrono::milliseconds lease,
       const std::string& store = {}, const std::vector<std::string>& extra = {})
      : id_(id) {
    std::vector<std::string> args{"--bind",
                                  "127.0.0.1",
                                  "--port",
                                  "0",
                                  "--threads",
                                  "2",
                                  "--data-dir",
                                  dir_.path.string(),
                                  "--cluster",
                                  redis.url(),
                                  "--node-id",
                                  id_,
                                  "--cluster-lease-ms",
                                  std::to_string(lease.count())};
    // A shared store: games played at full speed, so no rate limit.
    if (!store.empty())
      args.insert(args.end(), {"--store", store, "--rate", "1000000", "--rate-burst", "1000000"});
    args.insert(args.end(), extra.begin(), extra.end());
    process_ = std::make_unique<ChildProcess>(server_binary(), std::move(args));
    port_ = listening_port(*process_, std::chrono::seconds(30));
  }

  // A node still running stops cleanly here and must exit 0: a sanitized build's report (or a
  // leak) turns that into a failure. How it ended and its log's unusual lines come first: a
  // long log may be cut short where it is shown.
  ~Node() {
    if (stopped_) return;
    if (terminate() != 0)
      FAIL_CHECK("node " << id_ << ", sent SIGTERM, " << process_->ending() << " (waited up to "
                         << kStopWait.count() << " s); its log's lines other than info:\n"
                         << ChildProcess::unusual_lines(process_->stderr_text())
                         << "its whole log:\n"
                         << process_->stderr_text());
  }

  std::uint16_t port() const { return port_; }
  ChildProcess& process() { return *process_; }
  void kill() {
    stopped_ = true;
    process_->signal(SIGKILL);
    process_->wait(std::chrono::seconds(10));
  }
  // SIGTERM: the clean stop; the exit status.
  std::optional<int> terminate() {
    stopped_ = true;
    process_->signal(SIGTERM);
    return process_->wait(kStopWait);
  }

 private:
  static constexpr std::chrono::seconds kStopWait = ChildProcess::kStopWait;

  std::string id_;
  DataDir dir_;
  std::unique_ptr<ChildProcess> process_;
  std::uint16_t port_ = 0;
  bool stopped_ = false;
};

}  // namespace tanbo_server::server::test
