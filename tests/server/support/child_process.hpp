#pragma once
// A real child process with its stderr captured: for testing the built binary.
#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace tanbo::server::test {

class ChildProcess {
 public:
  // Starts `path args...` with stdout discarded and the TANBO_* variables removed from the
  // environment, then `extra_env` ("NAME=value") added. Throws when the spawn fails.
  ChildProcess(const std::string& path, const std::vector<std::string>& args,
               const std::vector<std::string>& extra_env = {});
  ~ChildProcess();  // kills the child if it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads stderr until `needle` appears, the stream ends or the time runs out; returns the
  // line that holds it.
  std::optional<std::string> wait_for_line(const std::string& needle,
                                           std::chrono::milliseconds timeout);
  void signal(int signo);
  // The exit status if the child exited (not killed by a signal) within the time.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  // How the child ended, as the last wait() saw it: "exited with 1", "was killed by signal 6
  // (Aborted)", or "was still running" after a wait that timed out.
  std::string ending() const;
  // All stderr read so far (wait() reads the rest).
  const std::string& stderr_text() const { return err_; }

 private:
  bool read_some(std::chrono::milliseconds timeout);

  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string err_;
  bool reaped_ = false;
  int status_ = 0;  // waitpid's, once reaped
};

}  // namespace tanbo::server::test
