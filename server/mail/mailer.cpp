#include "server/mail/mailer.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

#include <cerrno>
#include <cstring>

#include "server/metrics/metrics.hpp"
#include "server/wall_clock.hpp"

extern char** environ;

namespace tanbo_server::server::mail {
namespace {

using Clock = std::chrono::steady_clock;

// What became of one run of the command.
struct Run {
  std::string result;  // "sent", "failed", "timed_out"
  std::string detail;  // for the log: the exit status and the first line the command wrote
};

// Both ends of a pipe, closed on exec; the parent's end non-blocking.
bool pipe_pair(int fds[2], int parent_end) {
  if (pipe2(fds, O_CLOEXEC) != 0) return false;
  fcntl(fds[parent_end], F_SETFL, fcntl(fds[parent_end], F_GETFL) | O_NONBLOCK);
  return true;
}

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 300) line.resize(300);
  return line;
}

// Runs `argv` with `input` on its stdin, its stderr kept, its stdout dropped; in a process group
// of its own, which is killed whole past `deadline`.
Run run_command(const std::vector<std::string>& words, const std::string& input,
                Clock::time_point deadline) {
  int in[2], err[2];
  if (!pipe_pair(in, 1)) return {"failed", std::string("pipe: ") + std::strerror(errno)};
  if (!pipe_pair(err, 0)) {
    close(in[0]), close(in[1]);
    return {"failed", std::string("pipe: ") + std::strerror(errno)};
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  // The server's sockets and files stay its own (Asio's are not all closed on exec).
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  std::vector<char*> argv;
  for (const auto& w : words) argv.push_back(const_cast<char*>(w.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  close(in[0]), close(err[1]);
  if (rc != 0) {
    close(in[1]), close(err[0]);
    return {"failed", "cannot start " + words[0] + ": " + std::strerror(rc)};
  }
  std::size_t written = 0;
  std::string said;
  int status = 0;
  bool ended = false, timed_out = false;
  while (!ended) {
    if (in[1] >= 0 && written < input.size()) {
      const ssize_t n = write(in[1], input.data() + written, input.size() - written);
      if (n > 0) written += std::size_t(n);
      if (n < 0 && errno != EAGAIN && errno != EINTR) close_fd(in[1]);  // EPIPE: it stopped reading
    }
    if (in[1] >= 0 && written == input.size()) close_fd(in[1]);  // the end of the message
    char buf[512];
    for (ssize_t n; err[0] >= 0 && (n = read(err[0], buf, sizeof buf)) != 0;) {
      if (n < 0) break;
      if (said.size() < 4096) said.append(buf, std::size_t(n));
    }
    if (waitpid(pid, &status, WNOHANG) == pid) {
      ended = true;
      break;
    }
    if (Clock::now() >= deadline) {
      timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    pollfd fds[2] = {{in[1], POLLOUT, 0}, {err[0], POLLIN, 0}};
    poll(fds, 2, 20);
  }
  close_fd(in[1]);
  close_fd(err[0]);
  if (timed_out) return {"timed_out", "killed after the timeout"};
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && written == input.size())
    return {"sent", "exit 0"};
  std::string detail = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                         : "killed by signal " + std::to_string(WTERMSIG(status));
  if (written < input.size()) detail += ", the message not read whole";
  if (!said.empty()) detail += ": " + first_line(said);
  return {"failed", detail};
}

}  // namespace

std::optional<std::vector<std::string>> command_words(std::string_view text) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto start = text.find_first_not_of(' ', i);
    if (start == std::string_view::npos) break;
    const auto end = text.find(' ', start);
    out.emplace_back(text.substr(start, end - start));
    i = end == std::string_view::npos ? text.size() : end;
  }
  if (out.empty()) return std::nullopt;
  return out;
}

Mailer::Mailer(Settings settings) : settings_(std::move(settings)) {
  thread_ = std::thread([this] { run(); });
}

Mailer::~Mailer() { stop(); }

bool Mailer::send(Message m, std::string about) {
  {
    std::lock_guard lock(mutex_);
    if (!stopping_ && queue_.size() < settings_.queue) {
      queue_.push_back({std::move(m), std::move(about)});
      wake_.notify_one();
      return true;
    }
  }
  metrics::mail("dropped");
  spdlog::warn("mail: {} dropped: {} mails wait already", about, settings_.queue);
  return false;
}

void Mailer::stop() {
  std::size_t dropped = 0;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
    dropped = queue_.size();
    queue_.clear();
    wake_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
  if (dropped > 0) spdlog::warn("mail: {} mails unsent at the stop", dropped);
}

void Mailer::run() {
  // A command that ends before it read its message makes the write fail (EPIPE); the signal
  // that comes with it stays blocked on this thread rather than stopping the server.
  sigset_t pipe;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, nullptr);
  for (;;) {
    Item item;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;
      item = std::move(queue_.front());
      queue_.pop_front();
    }
    deliver(item);
    timespec zero{};
    sigtimedwait(&pipe, nullptr, &zero);  // a SIGPIPE of this run, if any, is spent
  }
}

void Mailer::deliver(const Item& item) {
  const std::string text = compose(item.message, settings_.from, wall_ms());
  const Run r = run_command(settings_.command, text, Clock::now() + settings_.timeout);
  metrics::mail(r.result);
  if (r.result == "sent")
    spdlog::info("mail: {} sent", item.about);
  else
    spdlog::error("mail: {} not sent: {} ({})", item.about, settings_.command[0], r.detail);
}

}  // namespace tanbo_server::server::mail
