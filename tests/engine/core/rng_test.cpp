#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <catch2/catch.hpp>
#include <vector>

#include "engine/core/rng.hpp"

using namespace tanbo_server::engine;

namespace {

// docs/fairness.md, re-derived with OpenSSL: block i = HMAC-SHA256(seed, "tanbo-drbg" || be64(i)).
std::vector<std::uint32_t> reference_words(const Seed& seed, int count) {
  std::vector<std::uint32_t> words;
  for (std::uint64_t i = 0; int(words.size()) < count; ++i) {
    std::vector<std::uint8_t> msg = {'t', 'a', 'n', 'b', 'o', '-', 'd', 'r', 'b', 'g'};
    for (int b = 7; b >= 0; --b) msg.push_back(std::uint8_t(i >> (8 * b)));
    unsigned char out[32];
    unsigned int len = 0;
    HMAC(EVP_sha256(), seed.data(), 32, msg.data(), msg.size(), out, &len);
    for (int w = 0; w < 8; ++w)
      words.push_back(std::uint32_t(out[4 * w]) << 24 | std::uint32_t(out[4 * w + 1]) << 16 |
                      std::uint32_t(out[4 * w + 2]) << 8 | out[4 * w + 3]);
  }
  words.resize(count);
  return words;
}

}  // namespace

TEST_CASE("R1: the DRBG's draws can be re-derived from the seed with standard HMAC-SHA256",
          "[core][rng][fairness]") {
  Seed seed = seed_from_text("fairness");
  auto words = reference_words(seed, 100);
  Drbg rng(seed);
  SECTION("a draw below n accepts x < 2^32 - (2^32 mod n) and answers x mod n") {
    for (int i = 0; i < 100; ++i) {
      std::uint32_t n = std::uint32_t(i % 29 + 1);
      std::uint64_t limit = (1ULL << 32) - ((1ULL << 32) % n);
      REQUIRE(words[i] < limit);  // with this seed no word is rejected in the first 100
      CHECK(rng.below(n) == words[i] % n);
    }
    CHECK(rng.words_drawn() == 100);
  }
  SECTION("a word at or above the limit is rejected and the next one is used") {
    // n = 3 * 2^30 makes the limit 3 * 2^30, so every word >= that is rejected.
    const std::uint32_t n = 3u << 30;
    std::size_t i = 0;
    for (int draws = 0; draws < 40; ++draws) {
      while (words[i] >= n) ++i;
      CHECK(rng.below(n) == words[i]);
      ++i;
    }
    CHECK(rng.words_drawn() == i);
  }
}

TEST_CASE("R1: the commitment is the SHA-256 of the seed's bytes", "[core][rng][fairness]") {
  Seed seed{};
  for (int i = 0; i < 32; ++i) seed[i] = std::uint8_t(i);
  CHECK(seed_hex(seed) == "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  CHECK(seed_commitment(seed) ==
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
}

TEST_CASE("Seeds round-trip through hex and bad hex is refused", "[core][rng]") {
  Seed seed = seed_from_text("x");
  CHECK(seed_from_hex(seed_hex(seed)) == seed);
  CHECK_FALSE(seed_from_hex("00"));
  CHECK_FALSE(seed_from_hex(std::string(64, 'g')));
  CHECK(seed_from_hex(std::string(64, 'A')));
}

TEST_CASE("Draws are uniform: every value of a small range comes up about equally", "[core][rng]") {
  Drbg drbg(seed_from_text("uniform"));
  FastRng fast(42);
  for (Rng* rng : {static_cast<Rng*>(&drbg), static_cast<Rng*>(&fast)}) {
    std::vector<int> counts(7, 0);
    for (int i = 0; i < 70000; ++i) ++counts[rng->below(7)];
    for (int c : counts) CHECK(std::abs(c - 10000) < 500);  // about 5 standard deviations
  }
}
