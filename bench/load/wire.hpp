#pragma once
#include <cstdint>

namespace tanbo_server::load {

// The bytes the TCP socket `fd` has received so far (0 when the kernel cannot say).
std::uint64_t tcp_bytes_received(int fd);

}  // namespace tanbo_server::load
