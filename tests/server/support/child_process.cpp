#include "tests/server/support/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace tanbo_server::server::test {

using Clock = std::chrono::steady_clock;

ChildProcess::ChildProcess(const std::string& path, const std::vector<std::string>& args,
                           const std::vector<std::string>& extra_env) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe2 failed");

  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "TANBO_", 6) != 0) env.emplace_back(*e);
  env.insert(env.end(), extra_env.begin(), extra_env.end());

  command_ = path;
  for (const auto& a : args) command_ += " " + a;
  std::vector<char*> argv{const_cast<char*>(path.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], 2);
  int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    throw std::runtime_error("posix_spawn " + path + ": " + std::strerror(rc));
  }
  err_fd_ = fds[0];
  reader_ = std::thread([this] { read_stderr(); });
}

ChildProcess::~ChildProcess() {
  if (!reaped_ && pid_ > 0) {
    // The clean stop every server and tool here has: anything but exit 0 is a finding (under
    // the sanitizers, a leak or a report at shutdown), and is the test's failure.
    ::kill(pid_, SIGTERM);
    if (wait(kStopWait) != 0)
      FAIL_CHECK(command_ << "\nsent SIGTERM at the end of the test, " << ending()
                          << " (waited up to " << kStopWait.count()
                          << " s); its stderr's lines other than info:\n"
                          << unusual_lines(stderr_text()) << "its whole stderr:\n"
                          << stderr_text());
    if (!reaped_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  if (reader_.joinable()) reader_.join();
  if (err_fd_ >= 0) close(err_fd_);
}

void ChildProcess::read_stderr() {
  char buf[4096];
  for (;;) {
    // A grandchild may hold the pipe open after the child is gone: the loop looks up every
    // 100 ms whether it should stop.
    pollfd p{err_fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, 100);
    if (ready == 0) {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
      continue;
    }
    const ssize_t n = ready < 0 ? -1 : ::read(err_fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    std::lock_guard lock(mutex_);
    if (n <= 0) break;
    err_.append(buf, static_cast<std::size_t>(n));
    grew_.notify_all();
  }
  std::lock_guard lock(mutex_);
  ended_ = true;
  grew_.notify_all();
}

std::string ChildProcess::stderr_text() const {
  std::lock_guard lock(mutex_);
  return err_;
}

std::optional<std::string> ChildProcess::wait_for_line(const std::string& needle,
                                                       std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::unique_lock lock(mutex_);
  for (;;) {
    if (auto at = err_.find(needle); at != std::string::npos) {
      auto begin = err_.rfind('\n', at);
      begin = begin == std::string::npos ? 0 : begin + 1;
      return err_.substr(begin, err_.find('\n', at) - begin);
    }
    if (ended_) return std::nullopt;
    if (grew_.wait_until(lock, deadline) == std::cv_status::timeout &&
        err_.find(needle) == std::string::npos)
      return std::nullopt;
  }
}

void ChildProcess::signal(int signo) { ::kill(pid_, signo); }

bool ChildProcess::freeze(std::chrono::milliseconds timeout) {
  ::kill(pid_, SIGSTOP);
  for (auto deadline = Clock::now() + timeout; Clock::now() < deadline;) {
    siginfo_t info{};
    if (::waitid(P_PID, pid_, &info, WSTOPPED | WNOHANG) == 0 && info.si_pid == pid_) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  int status = 0;
  for (;;) {
    pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) break;
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  reaped_ = true;
  status_ = status;
  {  // the rest of its stderr: up to the end of the stream, 1 s at most (a grandchild's)
    std::unique_lock lock(mutex_);
    grew_.wait_for(lock, std::chrono::seconds(1), [this] { return ended_; });
  }
  if (!WIFEXITED(status)) return std::nullopt;
  return WEXITSTATUS(status);
}

std::string ChildProcess::unusual_lines(const std::string& log) {
  std::string out;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);)
    if (auto space = line.find(' '); line.compare(space + 1, 5, "info ") != 0) out += line + "\n";
  return out.empty() ? "(none)\n" : out;
}

std::string ChildProcess::ending() const {
  if (!reaped_) return "was still running";
  if (WIFEXITED(status_)) return "exited with " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_))
    return "was killed by signal " + std::to_string(WTERMSIG(status_)) + " (" +
           strsignal(WTERMSIG(status_)) + ")";
  return "ended with status " + std::to_string(status_);
}

}  // namespace tanbo_server::server::test
