#include <catch2/catch.hpp>

#include <chrono>

#include "tests/server/rooms/fixture.hpp"
#include "tests/server/support/in_process_server.hpp"

using namespace tanbo_server::server;
using namespace tanbo_server::server::test;

namespace {

// Answers any frame with `burst` sends of one shared buffer of `size` bytes, faster than any
// client reads.
class SharedBurst final : public FrameHandler {
 public:
  SharedBurst(int burst, std::size_t size)
      : burst_(burst), frame_(std::make_shared<const std::string>(size, 'x')) {}
  void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view) override {
    for (int i = 0; i < burst_; ++i) peer->send(frame_);
  }

 private:
  int burst_;
  std::shared_ptr<const std::string> frame_;
};

}  // namespace

TEST_CASE("a queue over --queue-bytes is dropped with 1008 however few frames it holds",
          "[net][slow]") {
  Config c = loopback_config();
  c.ws_queue_max = 1 << 20;  // the frame bound never bites here
  c.ws_queue_bytes = 64 * 1024;
  // One shared 8 KiB buffer queued 200 times counts 1.6 MB against this queue, not 8 KiB.
  InProcessServer fx(c, std::make_shared<SharedBurst>(200, 8 * 1024));
  WsClient client(fx.port());
  client.send("go");

  int frames = 0;
  WsClient::Frame f;
  while ((f = client.read()).got == WsClient::Got::text) ++frames;
  REQUIRE(f.got == WsClient::Got::closed);
  CHECK(client.close_code() == static_cast<std::uint16_t>(CloseCode::policy_error));
  CHECK(frames < 200);
  CHECK(fx.server.context().counters.ws_dropped_slow.load() == 1);
}

TEST_CASE("a queue under both bounds delivers every frame", "[net][slow]") {
  Config c = loopback_config();
  c.ws_queue_max = 1 << 20;
  c.ws_queue_bytes = 1 << 20;
  InProcessServer fx(c, std::make_shared<SharedBurst>(100, 8 * 1024));  // 800 KiB
  WsClient client(fx.port());
  client.send("go");
  for (int i = 0; i < 100; ++i) REQUIRE(client.read().got == WsClient::Got::text);
  CHECK(fx.server.context().counters.ws_dropped_slow.load() == 0);
}

TEST_CASE(
    "a spectator that stops reading in a busy room is dropped by the byte bound while the "
    "others get every version promptly",
    "[net][slow]") {
  Config c = rooms_config();
  c.ws_queue_max = 1 << 20;  // only the byte bound can drop it
  c.ws_queue_bytes = 16 * 1024;
  RoomsServer fx(c);
  Table t = Table::seat(fx.port(), "tanbo", 2, 2);
  ProtocolClient slow(fx.port());
  slow.hello();
  slow.send({{"type", "join"}, {"room", t.room}, {"as", "spectator"}});
  slow.expect("joined");  // a spectator's join is answered to the joiner alone
  slow.expect("state");
  // It asks for far more than it reads: thousands of `games` replies, then the room's states.
  std::string request = json({{"type", "games"}}).dump();
  for (int i = 0; i < 4000; ++i) slow.send_raw(request);

  // Every move reaches both players, each version once and in order, within the client's read
  // bound: the slow reader holds nobody up.
  int moves = 0;
  for (; moves < 40 && t.state.at("status") == "playing"; ++moves) {
    const std::uint64_t v = t.play_first();
    t.catch_up(v + 1);  // throws on a skipped version
  }
  CHECK(moves > 10);
  CHECK(fx.server.server.context().counters.ws_dropped_slow.load() == 1);

  // The slow client finds, after what the kernel had buffered, the close 1008.
  WsClient::Frame f;
  int read = 0;
  while ((f = slow.ws().read()).got == WsClient::Got::text && read < 1'000'000) ++read;
  REQUIRE(f.got == WsClient::Got::closed);
  CHECK(slow.ws().close_code() == static_cast<std::uint16_t>(CloseCode::policy_error));
}
