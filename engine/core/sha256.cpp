#include "engine/core/sha256.hpp"

#include <openssl/evp.h>

#include <new>
#include <stdexcept>

namespace tanbo_server::engine {
namespace {

// Fetched once: an implicit fetch (EVP_sha256()) looks the provider up again on every init.
const EVP_MD* sha256_md() {
  static EVP_MD* md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (!m) throw std::runtime_error("libcrypto has no SHA-256");
    return m;
  }();
  return md;
}

void check(int ok) {
  if (ok != 1) throw std::runtime_error("libcrypto SHA-256 failed");
}

EVP_MD_CTX* new_context() {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (!ctx) throw std::bad_alloc();
  return ctx;
}

// One context per thread for the hashes that keep no state: reused, never reallocated.
EVP_MD_CTX* scratch() {
  thread_local std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(new_context(),
                                                                           &EVP_MD_CTX_free);
  return ctx.get();
}

Digest finish(EVP_MD_CTX* ctx) {
  Digest out;
  unsigned int len = 0;
  check(EVP_DigestFinal_ex(ctx, out.data(), &len));
  return out;
}

}  // namespace

Digest sha256(std::span<const std::uint8_t> bytes) {
  EVP_MD_CTX* ctx = scratch();
  check(EVP_DigestInit_ex2(ctx, sha256_md(), nullptr));
  check(EVP_DigestUpdate(ctx, bytes.data(), bytes.size()));
  return finish(ctx);
}

Digest sha256(std::string_view text) {
  return sha256({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

void HmacSha256::Free::operator()(evp_md_ctx_st* ctx) const { EVP_MD_CTX_free(ctx); }

HmacSha256::HmacSha256(std::span<const std::uint8_t> key)
    : inner_(new_context()), outer_(new_context()) {
  Digest hashed;
  if (key.size() > 64) key = hashed = sha256(key);  // RFC 2104: a longer key is hashed first
  std::array<std::uint8_t, 64> ipad{}, opad{};
  for (std::size_t i = 0; i < 64; ++i) {
    std::uint8_t k = i < key.size() ? key[i] : 0;
    ipad[i] = k ^ 0x36;
    opad[i] = k ^ 0x5c;
  }
  check(EVP_DigestInit_ex2(inner_.get(), sha256_md(), nullptr));
  check(EVP_DigestUpdate(inner_.get(), ipad.data(), ipad.size()));
  check(EVP_DigestInit_ex2(outer_.get(), sha256_md(), nullptr));
  check(EVP_DigestUpdate(outer_.get(), opad.data(), opad.size()));
}

HmacSha256::HmacSha256(const HmacSha256& other) : inner_(new_context()), outer_(new_context()) {
  *this = other;
}

HmacSha256& HmacSha256::operator=(const HmacSha256& other) {
  if (this == &other) return *this;
  if (!inner_) inner_.reset(new_context());
  if (!outer_) outer_.reset(new_context());
  check(EVP_MD_CTX_copy_ex(inner_.get(), other.inner_.get()));
  check(EVP_MD_CTX_copy_ex(outer_.get(), other.outer_.get()));
  return *this;
}

HmacSha256::~HmacSha256() = default;

// RFC 2104: H(K ^ opad || H(K ^ ipad || message)), from the keyed states.
Digest HmacSha256::mac(std::span<const std::uint8_t> message) const {
  EVP_MD_CTX* ctx = scratch();
  check(EVP_MD_CTX_copy_ex(ctx, inner_.get()));
  check(EVP_DigestUpdate(ctx, message.data(), message.size()));
  Digest inner = finish(ctx);
  check(EVP_MD_CTX_copy_ex(ctx, outer_.get()));
  check(EVP_DigestUpdate(ctx, inner.data(), inner.size()));
  return finish(ctx);
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(bytes.size() * 2, '0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    out[2 * i] = digits[bytes[i] >> 4];
    out[2 * i + 1] = digits[bytes[i] & 15];
  }
  return out;
}

}  // namespace tanbo_server::engine
