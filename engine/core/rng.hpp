#pragma once
// Every random draw of a game goes through an Rng passed in (R1, R5), so a game is reproduced
// exactly by its seed and its actions. Drbg is the production generator, specified in
// docs/fairness.md; FastRng serves bots and self-play move picks, never a game's own draws.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/sha256.hpp"

namespace tanbo_server::engine {

class Rng {
 public:
  virtual ~Rng() = default;
  // A uniform integer in [0, n), n >= 1.
  virtual std::uint32_t below(std::uint32_t n) = 0;
};

using Seed = std::array<std::uint8_t, 32>;

std::string seed_hex(const Seed& seed);
std::optional<Seed> seed_from_hex(std::string_view hex);
// The public commitment to a seed: SHA-256 of its 32 bytes, lower-case hex (R1).
std::string seed_commitment(const Seed& seed);
// A seed derived from text (self-play and tests): SHA-256 of the UTF-8 bytes.
Seed seed_from_text(std::string_view text);

// HMAC-SHA256 in counter mode: block i = HMAC(seed, "tanbo-drbg" || be64(i)); the byte stream
// is the blocks in order; a draw takes the next 4 bytes as a big-endian u32 x and accepts it when
// x < 2^32 - (2^32 mod n), answering x mod n (rejection sampling, no modulo bias).
class Drbg final : public Rng {
 public:
  explicit Drbg(const Seed& seed);
  std::uint32_t below(std::uint32_t n) override;
  const Seed& seed() const { return seed_; }
  std::uint64_t words_drawn() const { return words_; }

 private:
  std::uint32_t next_word();

  Seed seed_;
  HmacSha256 hmac_;
  Digest block_{};
  std::uint64_t counter_ = 0;
  std::uint64_t words_ = 0;
  int offset_ = 32;
};

// xoshiro256** seeded by splitmix64: fast and good enough for choosing among legal moves.
class FastRng final : public Rng {
 public:
  explicit FastRng(std::uint64_t seed);
  std::uint64_t next();
  std::uint32_t below(std::uint32_t n) override;

 private:
  std::array<std::uint64_t, 4> s_;
};

}  // namespace tanbo_server::engine
