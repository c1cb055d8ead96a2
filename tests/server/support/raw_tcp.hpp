#pragma once
// A bare TCP connection to 127.0.0.1: for the tests that speak no protocol at all (sockets held
// open, a request written by hand).
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace tanbo_server::server::test {

class RawTcp {
 public:
  explicit RawTcp(std::uint16_t port);  // throws when the connect fails
  ~RawTcp();
  RawTcp(const RawTcp&) = delete;
  RawTcp& operator=(const RawTcp&) = delete;

  void send(std::string_view bytes);  // as much as the socket takes; errors ignored
  // Everything read until the peer closes or `timeout` passes.
  std::string read_all(std::chrono::milliseconds timeout);
  // What was read once `enough` of it came, or when the peer closed or `timeout` passed.
  std::string read_until(const std::function<bool(std::string_view)>& enough,
                         std::chrono::milliseconds timeout);
  // True when the peer closed (or reset) the connection within `timeout`.
  bool closed_within(std::chrono::milliseconds timeout);

 private:
  int fd_ = -1;
};

}  // namespace tanbo_server::server::test
