#include "engine/core/rng.hpp"

#include <bit>

namespace tanbo_server::engine {

std::string seed_hex(const Seed& seed) { return to_hex(seed); }

std::optional<Seed> seed_from_hex(std::string_view hex) {
  if (hex.size() != 64) return std::nullopt;
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  Seed seed;
  for (std::size_t i = 0; i < 32; ++i) {
    int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    seed[i] = std::uint8_t(hi << 4 | lo);
  }
  return seed;
}

std::string seed_commitment(const Seed& seed) { return to_hex(sha256(seed)); }

Seed seed_from_text(std::string_view text) { return sha256(text); }

Drbg::Drbg(const Seed& seed) : seed_(seed), hmac_(seed) {}

std::uint32_t Drbg::next_word() {
  if (offset_ == 32) {
    static constexpr std::string_view label = "tanbo-drbg";
    std::array<std::uint8_t, label.size() + 8> message{};
    for (std::size_t i = 0; i < label.size(); ++i) message[i] = std::uint8_t(label[i]);
    for (int i = 0; i < 8; ++i) message[label.size() + i] = std::uint8_t(counter_ >> (56 - 8 * i));
    block_ = hmac_.mac(message);
    ++counter_;
    offset_ = 0;
  }
  const std::uint8_t* p = block_.data() + offset_;
  offset_ += 4;
  ++words_;
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

std::uint32_t Drbg::below(std::uint32_t n) {
  // limit = 2^32 - (2^32 mod n), computed in 64 bits.
  const std::uint64_t limit = (std::uint64_t(1) << 32) - ((std::uint64_t(1) << 32) % n);
  for (;;) {
    std::uint32_t x = next_word();
    if (x < limit) return x % n;
  }
}

FastRng::FastRng(std::uint64_t seed) {
  for (auto& word : s_) {
    seed += 0x9e3779b97f4a7c15ULL;
    std::uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    word = z ^ (z >> 31);
  }
}

std::uint64_t FastRng::next() {
  const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0], s_[3] ^= s_[1], s_[1] ^= s_[2], s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

std::uint32_t FastRng::below(std::uint32_t n) {
  // Lemire's multiply-shift; the bias is below 2^-32 for the small n used here.
  return std::uint32_t((std::uint64_t(std::uint32_t(next() >> 32)) * n) >> 32);
}

}  // namespace tanbo_server::engine
