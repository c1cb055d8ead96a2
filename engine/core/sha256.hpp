#pragma once
// SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104), self-contained so that the engine's DRBG
// allocates nothing and costs a few hundred nanoseconds per block. Cross-checked against
// OpenSSL and the RFC 4231 vectors in tests/engine/core.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tanbo::engine {

using Digest = std::array<std::uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  void update(std::span<const std::uint8_t> bytes);
  void update(std::string_view text);
  Digest finish();

 private:
  void compress(const std::uint8_t* block);

  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

Digest sha256(std::span<const std::uint8_t> bytes);
Digest sha256(std::string_view text);

// HMAC-SHA256 with a key of at most 64 bytes, its inner and outer pads hashed once.
class HmacSha256 {
 public:
  explicit HmacSha256(std::span<const std::uint8_t> key);
  Digest mac(std::span<const std::uint8_t> message) const;

 private:
  Sha256 inner_, outer_;
};

std::string to_hex(std::span<const std::uint8_t> bytes);

}  // namespace tanbo::engine
