#pragma once
// Blocking HTTP and WebSocket clients for tests. Every call is bounded by a timeout (5 s), so a
// server that stops answering fails the test instead of hanging it. Connection failures throw.
// Beast-free on purpose: a test file including this compiles in a second, not in half a minute.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tanbo_server::server::test {

// How long a test's client waits on a socket before it calls the server hung: a guard against a
// test that never ends, far above what any answer takes on a loaded machine under the sanitizers
// (a password hashed on a 2-core runner busy with other tests took more than 5 s).
constexpr auto kClientTimeout = std::chrono::seconds(30);

struct HttpReply {
  unsigned status = 0;
  std::string content_type;
  std::string body;
  std::string retry_after = {};                     // the Retry-After header, if any
  std::string content_disposition = {};             // the Content-Disposition header, if any
  std::map<std::string, std::string> headers = {};  // every header, its name in lowercase
};

// Header fields to send, as given.
using Headers = std::vector<std::pair<std::string, std::string>>;

// One request as given: only the headers listed (and Host, Content-Length) are sent.
HttpReply http_exchange(std::uint16_t port, std::string_view method, std::string_view target,
                        const Headers& headers, std::string_view body = {});

// One request on a fresh connection to 127.0.0.1:port; method is "GET", "HEAD", "POST", ...;
// `authorization`, when not empty, goes in the Authorization header; `body` (JSON) is sent as
// the request's body; `forwarded_for`, when not empty, goes in X-Forwarded-For.
HttpReply http_request(std::uint16_t port, std::string_view method, std::string_view target,
                       std::string_view authorization = {}, std::string_view body = {},
                       std::string_view forwarded_for = {});
inline HttpReply http_get(std::uint16_t port, std::string_view target) {
  return http_request(port, "GET", target);
}

// An upgrade answered with another status than 101: `reply` holds the server's answer.
struct WsRefused : std::runtime_error {
  explicit WsRefused(HttpReply r)
      : std::runtime_error("upgrade refused: " + std::to_string(r.status)), reply(std::move(r)) {}
  HttpReply reply;
};

class WsClient {
 public:
  // Connects to 127.0.0.1:port and completes the WebSocket handshake; `forwarded_for`, when not
  // empty, goes in an X-Forwarded-For header (a proxy's, as a trusted proxy would send it).
  explicit WsClient(std::uint16_t port, std::string_view target = "/ws",
                    std::string forwarded_for = {});
  // The same with these header fields in the upgrade request. An upgrade the server answers
  // with anything but 101 throws WsRefused.
  WsClient(std::uint16_t port, const Headers& headers);
  ~WsClient();

  void send(std::string_view text);
  void send_binary(std::string_view bytes);

  enum class Got { text, closed, failed };  // closed: the server sent a close frame
  struct Frame {
    Got got = Got::failed;
    std::string text;  // the message, or what failed
  };
  Frame read();
  // How long each operation may take from now on (kClientTimeout unless set).
  void set_timeout(std::chrono::milliseconds limit);
  // The server's close code, once read() answered Got::closed.
  std::uint16_t close_code() const;
  // The server's close reason, once read() answered Got::closed.
  std::string close_reason() const;
  // The server's answer to the upgrade (101).
  const HttpReply& upgrade_reply() const;
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tanbo_server::server::test
