#include "tests/server/support/raw_tcp.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace tanbo_server::server::test {

RawTcp::RawTcp(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) throw std::runtime_error("socket failed");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd_);
    throw std::runtime_error("connect failed");
  }
}

RawTcp::~RawTcp() {
  if (fd_ >= 0) ::close(fd_);
}

void RawTcp::send(std::string_view bytes) {
  while (!bytes.empty()) {
    auto n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return;
    bytes.remove_prefix(std::size_t(n));
  }
}

std::string RawTcp::read_all(std::chrono::milliseconds timeout) {
  std::string out;
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return out;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, int(left.count())) <= 0) return out;
    char buf[4096];
    auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) return out;
    out.append(buf, std::size_t(n));
  }
}

std::string RawTcp::read_until(const std::function<bool(std::string_view)>& enough,
                               std::chrono::milliseconds timeout) {
  std::string out;
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (!enough(out)) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, int(left.count())) <= 0) break;
    char buf[4096];
    auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, std::size_t(n));
  }
  return out;
}

bool RawTcp::closed_within(std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        until - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, int(left.count())) <= 0) return false;
    char buf[4096];
    auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return true;
  }
}

}  // namespace tanbo_server::server::test
