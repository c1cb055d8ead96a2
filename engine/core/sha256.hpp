#pragma once
// SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104) from OpenSSL's libcrypto: its SHA-256 uses the
// CPU's SHA extensions where there are some. The digest is fetched once, and an HMAC keeps its
// keyed inner and outer states, so a DRBG block costs two short hashes and no allocation. The
// OpenSSL headers stay out of the engine's headers.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX

namespace tanbo_server::engine {

using Digest = std::array<std::uint8_t, 32>;

Digest sha256(std::span<const std::uint8_t> bytes);
Digest sha256(std::string_view text);

// HMAC-SHA256, its inner and outer pads hashed once per key.
class HmacSha256 {
 public:
  explicit HmacSha256(std::span<const std::uint8_t> key);
  HmacSha256(const HmacSha256& other);
  HmacSha256& operator=(const HmacSha256& other);
  HmacSha256(HmacSha256&&) noexcept = default;
  HmacSha256& operator=(HmacSha256&&) noexcept = default;
  ~HmacSha256();

  Digest mac(std::span<const std::uint8_t> message) const;

 private:
  struct Free {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  using Context = std::unique_ptr<evp_md_ctx_st, Free>;
  Context inner_, outer_;
};

std::string to_hex(std::span<const std::uint8_t> bytes);

}  // namespace tanbo_server::engine
