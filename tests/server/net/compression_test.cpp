// server/net/websocket_session.cpp: permessage-deflate (RFC 7692) for the clients that offer it,
// seen on the wire: the handshake's answer and the first byte of the server's frame (RSV1 set on
// a compressed message), written and read by hand over a bare socket.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "tests/server/support/in_process_server.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

struct Answer {
  std::string headers;    // the handshake's answer, up to the blank line
  std::string frame;      // what came after it: the server's frames
  std::string extension;  // its Sec-WebSocket-Extensions, empty when absent
};

// How long a read waits for what it expects: far beyond what a loaded machine needs.
constexpr std::chrono::seconds kWait{10};

// Whether `in` starts with a whole frame from the server (unmasked; a 7, 16 or 64-bit length).
bool whole_frame(std::string_view in) {
  if (in.size() < 2) return false;
  const std::size_t len7 = static_cast<unsigned char>(in[1]) & 0x7f;
  const std::size_t extra = len7 == 126 ? 2 : len7 == 127 ? 8 : 0;
  if (in.size() < 2 + extra) return false;
  std::size_t len = len7;
  if (extra != 0) {
    len = 0;
    for (std::size_t i = 0; i < extra; ++i) len = len << 8 | static_cast<unsigned char>(in[2 + i]);
  }
  return in.size() >= 2 + extra + len;
}

// The upgrade with `offer` in Sec-WebSocket-Extensions (none when empty), then one masked text
// frame whose answer (an error message of about a hundred bytes) is over the threshold.
Answer upgrade_and_send(std::uint16_t port, const std::string& offer) {
  RawTcp tcp(port);
  std::string request =
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n";
  if (!offer.empty()) request += "Sec-WebSocket-Extensions: " + offer + "\r\n";
  request += "\r\n";
  tcp.send(request);
  // A client sends nothing more before the answer (RFC 6455, 4.1).
  Answer a;
  a.headers = tcp.read_until(
      [](std::string_view in) { return in.find("\r\n\r\n") != std::string_view::npos; }, kWait);
  auto end = a.headers.find("\r\n\r\n");
  REQUIRE(end != std::string::npos);
  a.headers.resize(end);
  // FIN + text, masked, a zero mask (allowed: the payload goes as it is), then the payload.
  const std::string payload = R"({"type":"nothing we know"})";
  std::string frame = "\x81";
  frame += char(0x80 | payload.size());
  frame += std::string(4, '\0');
  frame += payload;
  tcp.send(frame);
  a.frame = tcp.read_until(whole_frame, kWait);
  const std::string key = "Sec-WebSocket-Extensions: ";
  if (auto at = a.headers.find(key); at != std::string::npos)
    a.extension = a.headers.substr(at + key.size(), a.headers.find("\r\n", at) - at - key.size());
  return a;
}

bool compressed(const Answer& a) {
  REQUIRE_FALSE(a.frame.empty());
  return (static_cast<unsigned char>(a.frame[0]) & 0x40) != 0;  // RSV1: permessage-deflate
}

}  // namespace

TEST_CASE("a client that offers permessage-deflate as browsers do gets its frames compressed",
          "[server][ws]") {
  InProcessServer fx;
  Answer a = upgrade_and_send(fx.port(), "permessage-deflate; client_max_window_bits");
  INFO(a.headers);
  CHECK_THAT(a.headers, Catch::StartsWith("HTTP/1.1 101"));
  CHECK_THAT(a.extension, Catch::StartsWith("permessage-deflate"));
  CHECK_THAT(a.extension, Catch::Contains("client_max_window_bits=12"));
  CHECK(compressed(a));
}

TEST_CASE("a client that offers nothing, or cannot limit its window, reads plain frames",
          "[server][ws]") {
  InProcessServer fx;
  for (std::string offer : {"", "permessage-deflate", "x-webkit-deflate-frame"}) {
    CAPTURE(offer);
    Answer a = upgrade_and_send(fx.port(), offer);
    INFO(a.headers);
    CHECK_THAT(a.headers, Catch::StartsWith("HTTP/1.1 101"));
    CHECK(a.extension.empty());
    CHECK_FALSE(compressed(a));
    CHECK(static_cast<unsigned char>(a.frame[0]) == 0x81);  // FIN + text, nothing else
  }
}

TEST_CASE("with compression off, every client is answered uncompressed", "[server][ws]") {
  Config c = loopback_config();
  c.compression = false;
  InProcessServer fx(c);
  Answer a = upgrade_and_send(fx.port(), "permessage-deflate; client_max_window_bits");
  INFO(a.headers);
  CHECK_THAT(a.headers, Catch::StartsWith("HTTP/1.1 101"));
  CHECK(a.extension.empty());
  CHECK_FALSE(compressed(a));
}
