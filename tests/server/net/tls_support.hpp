#pragma once
// A self-signed certificate and key made at test time with the OpenSSL API (no `openssl` CLI
// needed), and blocking TLS clients bounded by kClientTimeout.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/server/support/clients.hpp"

namespace tanbo::server::test {

// A fresh directory holding cert.pem and key.pem (EC P-256, CN=localhost, valid one hour);
// removed on destruction.
struct SelfSigned {
  SelfSigned();
  ~SelfSigned();
  SelfSigned(const SelfSigned&) = delete;
  SelfSigned& operator=(const SelfSigned&) = delete;

  std::filesystem::path dir, cert, key;
};

// GET over https (the certificate is not verified); throws when the connection or the TLS
// handshake fails.
HttpReply https_get(std::uint16_t port, const std::string& target);

// A wss:// exchange: connects, sends each text frame, returns the first `replies` frames read.
std::vector<std::string> wss_exchange(std::uint16_t port, const std::vector<std::string>& send,
                                      int replies);

}  // namespace tanbo::server::test
