#pragma once
// A self-signed certificate and key made at test time with the OpenSSL API (no `openssl` CLI
// needed), and blocking TLS clients bounded by kClientTimeout.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "tests/server/support/clients.hpp"

namespace tanbo_server::server::test {

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

// A wss:// protocol client: the TLS twin of ProtocolClient. Every message read is checked against
// its schema; a close, a timeout (kClientTimeout) or a violation throws.
class WssClient {
 public:
  explicit WssClient(std::uint16_t port);
  ~WssClient();
  WssClient(const WssClient&) = delete;
  WssClient& operator=(const WssClient&) = delete;

  void send(const nlohmann::json& msg);
  nlohmann::json next();
  nlohmann::json expect(std::string_view type);  // the next message, which must have this type
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tanbo_server::server::test
