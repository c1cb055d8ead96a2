#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/core/sha256.hpp"

using namespace tanbo_server::engine;

namespace {

std::vector<std::uint8_t> bytes(std::string_view s) { return {s.begin(), s.end()}; }

std::string openssl_sha256(const std::vector<std::uint8_t>& data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(data.data(), data.size(), out, &len, EVP_sha256(), nullptr);
  return to_hex({out, len});
}

std::string openssl_hmac(const std::vector<std::uint8_t>& key,
                         const std::vector<std::uint8_t>& msg) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), int(key.size()), msg.data(), msg.size(), out, &len);
  return to_hex({out, len});
}

}  // namespace

TEST_CASE("SHA-256 gives the FIPS 180-4 digests", "[core][sha256]") {
  CHECK(to_hex(sha256("")) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256("abc")) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(to_hex(sha256("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("SHA-256 agrees with OpenSSL at every length around the block boundaries",
          "[core][sha256]") {
  std::vector<std::uint8_t> data;
  for (int n = 0; n < 300; ++n) {
    CAPTURE(n);
    CHECK(to_hex(sha256(data)) == openssl_sha256(data));
    data.push_back(std::uint8_t(n * 31 + 7));
  }
}

TEST_CASE("HMAC-SHA256 gives the RFC 4231 vectors and agrees with OpenSSL", "[core][sha256]") {
  SECTION("RFC 4231 test case 1") {
    std::vector<std::uint8_t> key(20, 0x0b);
    CHECK(to_hex(HmacSha256(key).mac(bytes("Hi There"))) ==
          "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  }
  SECTION("RFC 4231 test case 2") {
    CHECK(to_hex(HmacSha256(bytes("Jefe")).mac(bytes("what do ya want for nothing?"))) ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }
  SECTION("32-byte keys and messages of many lengths") {
    std::vector<std::uint8_t> key(32), msg;
    for (int i = 0; i < 32; ++i) key[i] = std::uint8_t(i * 7 + 1);
    for (int n = 0; n < 150; ++n) {
      CAPTURE(n);
      CHECK(to_hex(HmacSha256(key).mac(msg)) == openssl_hmac(key, msg));
      msg.push_back(std::uint8_t(n));
    }
  }
  SECTION("keys longer than a block are hashed first") {
    std::vector<std::uint8_t> key(131, 0xaa);
    CHECK(to_hex(HmacSha256(key).mac(
              bytes("Test Using Larger Than Block-Size Key - Hash Key First"))) ==
          "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
    CHECK(to_hex(HmacSha256(key).mac(bytes("x"))) == openssl_hmac(key, bytes("x")));
  }
  SECTION("a copy keeps the key, and a copy assigned over another takes it") {
    HmacSha256 a(bytes("Jefe")), b(bytes("other"));
    HmacSha256 c = a;
    b = a;
    CHECK(to_hex(c.mac(bytes("what do ya want for nothing?"))) ==
          to_hex(a.mac(bytes("what do ya want for nothing?"))));
    CHECK(to_hex(b.mac(bytes("what do ya want for nothing?"))) ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }
}
