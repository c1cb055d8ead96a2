#pragma once
// A real child process with its stderr captured: for testing the built binary. A thread of its
// own reads stderr as it comes: a child whose log fills the pipe would otherwise block on its
// next line (a server's every thread that logs), which a test would read as a hung server.
#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace tanbo_server::server::test {

class ChildProcess {
 public:
  // Starts `path args...` with stdout discarded and the TANBO_* variables removed from the
  // environment, then `extra_env` ("NAME=value") added. Throws when the spawn fails.
  ChildProcess(const std::string& path, const std::vector<std::string>& args,
               const std::vector<std::string>& extra_env = {});
  // A child still running gets SIGTERM and must exit 0 within kStopWait, or the test fails
  // (then SIGKILL). A test that means kill -9 says so: signal(SIGKILL), then wait().
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stderr until `needle` appears, the stream ends or the time runs out; returns the
  // line that holds it.
  std::optional<std::string> wait_for_line(const std::string& needle,
                                           std::chrono::milliseconds timeout);
  void signal(int signo);
  // SIGSTOP, then waits until the child has stopped: kill() returns before every thread has,
  // and one still running could take what was meant to wait for it. False if the time ran out.
  bool freeze(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  // The exit status if the child exited (not killed by a signal) within the time.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // How the child ended, as the last wait() saw it: "exited with 1", "was killed by signal 6
  // (Aborted)", or "was still running" after a wait that timed out.
  std::string ending() const;
  // All stderr read so far (after wait(), all of it).
  std::string stderr_text() const;
  // The lines of a server's log that are not its own info lines: warnings, errors, a
  // sanitizer's report, a terminate message.
  static std::string unusual_lines(const std::string& log);

  static constexpr std::chrono::seconds kStopWait{15};

 private:
  void read_stderr();  // the reader thread's loop, until the stream ends or the child is gone

  std::string command_;  // for the failure's words
  pid_t pid_ = -1;
  int err_fd_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable grew_;
  std::string err_;
  bool ended_ = false;  // the stream ended (or the reader gave up on it)
  bool stopping_ = false;
  bool reaped_ = false;
  int status_ = 0;  // waitpid's, once reaped
  std::thread reader_;
};

}  // namespace tanbo_server::server::test
