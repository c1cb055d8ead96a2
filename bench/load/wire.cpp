// What a TCP socket has received (TCP_INFO's tcpi_bytes_received, Linux 4.1 and later): the bytes
// that came over the wire, WebSocket framing and compression included. A file of its own:
// <linux/tcp.h>, which has that member, and glibc's <netinet/tcp.h> cannot meet in one source.
#include "bench/load/wire.hpp"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cstddef>

namespace tanbo_server::load {

std::uint64_t tcp_bytes_received(int fd) {
  tcp_info info{};
  socklen_t len = sizeof info;
  if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0) return 0;
  if (len < offsetof(tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received) return 0;
  return info.tcpi_bytes_received;
}

}  // namespace tanbo_server::load
