#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <thread>

#include "tests/server/support/clients.hpp"
#include "tests/server/support/in_process_server.hpp"
#include "tests/server/support/raw_tcp.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;
using nlohmann::json;

TEST_CASE("a WebSocket client at /ws gets an error reply until message types exist",
          "[server][ws]") {
  InProcessServer fx;
  WsClient client(fx.port());

  SECTION("a JSON message of any type is answered unknown_type") {
    client.send(R"({"type":"hello","v":1})");
    auto f = client.read();
    REQUIRE(f.got == WsClient::Got::text);
    json reply = json::parse(f.text);
    CHECK(reply.at("type") == "error");
    CHECK(reply.at("code") == "unknown_type");
    CHECK(reply.at("received") == "hello");
  }
  SECTION("text that is not a JSON object is answered bad_message") {
    client.send("not json");
    auto f = client.read();
    REQUIRE(f.got == WsClient::Got::text);
    CHECK(json::parse(f.text).at("code") == "bad_message");
  }
  SECTION("the connection stays open for the next message") {
    client.send("{}");
    REQUIRE(client.read().got == WsClient::Got::text);
    client.send("{}");
    CHECK(client.read().got == WsClient::Got::text);
  }
  SECTION("a binary frame closes the connection with 1003") {
    client.send_binary("\x01\x02");
    auto f = client.read();
    CHECK(f.got == WsClient::Got::closed);
    CHECK(client.close_code() == static_cast<std::uint16_t>(CloseCode::unsupported_data));
  }
  client.close();
}

TEST_CASE("a WebSocket message over read_message_max closes the connection", "[server][ws]") {
  Config c = loopback_config();
  c.ws_message_max = 1024;
  InProcessServer fx(c);
  WsClient client(fx.port());
  client.send(std::string(4096, 'x'));  // over twice the limit: the transport itself closes
  auto f = client.read();
  INFO(f.text);
  CHECK(f.got == WsClient::Got::closed);
  CHECK(client.close_code() == 1009);
}

namespace {

// Answers any frame with a burst of `burst` frames, faster than any client reads.
class BurstHandler final : public FrameHandler {
 public:
  explicit BurstHandler(int burst) : burst_(burst) {}
  void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view) override {
    auto frame = std::make_shared<const std::string>(R"({"type":"state"})");
    for (int i = 0; i < burst_; ++i) peer->send(frame);
  }

 private:
  int burst_;
};

}  // namespace

TEST_CASE("a WebSocket whose write queue overflows is closed with 1008", "[server][ws]") {
  Config c = loopback_config();
  c.ws_queue_max = 8;
  InProcessServer fx(c, std::make_shared<BurstHandler>(64));
  WsClient client(fx.port());
  client.send("go");

  int frames = 0;
  WsClient::Frame f;
  while ((f = client.read()).got == WsClient::Got::text) ++frames;
  CHECK(f.got == WsClient::Got::closed);
  CHECK(client.close_code() == static_cast<std::uint16_t>(CloseCode::policy_error));
  CHECK(frames < 64);
  CHECK(fx.server.context().counters.ws_dropped_slow.load() == 1);
}

TEST_CASE("stopping the server closes each WebSocket with going_away after queued frames",
          "[server][ws]") {
  InProcessServer fx;
  WsClient client(fx.port());
  client.send("{}");
  REQUIRE(client.read().got == WsClient::Got::text);  // the session is open and registered

  std::size_t left = 99;
  std::thread stopper([&] { left = fx.server.stop(std::chrono::seconds(4)); });
  auto f = client.read();
  stopper.join();
  CHECK(f.got == WsClient::Got::closed);
  CHECK(client.close_code() == static_cast<std::uint16_t>(CloseCode::going_away));
  CHECK(left == 0);
  SECTION("and no longer accepts connections") { CHECK_THROWS(http_get(fx.port(), "/healthz")); }
}

TEST_CASE("a WebSocket that sends nothing, not even a pong, is closed after the idle timeout",
          "[server][ws]") {
  Config c = loopback_config();
  c.idle_timeout = 2;  // a ping at 1 s, the close at 2 s when nothing came back
  InProcessServer fx(c);
  RawTcp silent(fx.port());
  silent.send(
      "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
  CHECK_FALSE(silent.closed_within(std::chrono::milliseconds(900)));  // upgraded, then waiting
  CHECK(silent.closed_within(std::chrono::seconds(6)));
  // A client that talks is not idle, past the same time.
  WsClient talking(fx.port());
  for (int i = 0; i < 6; ++i) {
    talking.send("{}");
    REQUIRE(talking.read().got == WsClient::Got::text);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}
