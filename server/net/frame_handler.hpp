#pragma once
// The seam between the network and the protocol layer. Beast-free on purpose: what lies above
// sees a connection only as a WsPeer.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "protocol/limits.hpp"

namespace tanbo_server::server {

// WebSocket close codes the server uses (RFC 6455 section 7.4.1).
enum class CloseCode : std::uint16_t {
  normal = 1000,
  going_away = 1001,        // server shutting down
  unsupported_data = 1003,  // a binary frame
  policy_error = 1008,      // e.g. a client too slow to keep up
  too_big = 1009,           // a message over the size limit
  internal_error = 1011,
};

// One open WebSocket connection. Every member is safe to call from any thread: the work is
// posted to the connection's strand.
class WsPeer {
 public:
  virtual ~WsPeer() = default;
  virtual std::uint64_t id() const = 0;
  // Queues one text frame. The buffer is shared, so a broadcast serializes once. A peer whose
  // queue is full is closed with policy_error rather than allowed to stall the sender.
  virtual void send(std::shared_ptr<const std::string> text) = 0;
  // Queues two frames with nothing between them: an answer and the state that comes with it
  // (`created`, `joined`, `resumed`), which a reply to the client's next request must not overtake.
  virtual void send_both(std::shared_ptr<const std::string> first,
                         std::shared_ptr<const std::string> then) {
    send(std::move(first));
    send(std::move(then));
  }
  // Sends what is queued, then a close frame.
  virtual void close(CloseCode code) = 0;
  // Where the client connects from, as the per-address limits count it (server/net/address.hpp);
  // empty when unknown (a connection another node forwards).
  virtual std::string address() const { return {}; }
  // The User-Agent of the upgrade request, at most 200 bytes (cut at a UTF-8 boundary); empty
  // when it sent none or the peer is not a local connection.
  virtual std::string user_agent() const { return {}; }
  // The connection's identity is established (`welcome` sent): the hello deadline no longer
  // applies to it (--hello-timeout).
  virtual void welcomed() {}
  // Where a connection another node forwards comes from: that node and its id there. A local
  // connection has an empty node.
  struct Origin {
    std::string node;
    std::uint64_t peer = 0;
  };
  virtual Origin origin() const { return {}; }
  // Runs `fn` where the FrameHandler's calls for this peer run (its strand), after what is
  // queued there: work that starts elsewhere (a pairing) and concerns the connection's state.
  virtual void post(std::function<void()> fn) { fn(); }

  // The protocol version the connection speaks, as its hello named it (another node's connection:
  // as its node said): what a room sends it is written in that version's names. Any thread.
  int protocol() const { return protocol_.load(std::memory_order_relaxed); }
  void speak(int version) { protocol_.store(version, std::memory_order_relaxed); }

 private:
  std::atomic<int> protocol_{protocol::kProtocolVersion};
};

// Receives what the peers say. Calls for one peer come from its strand, one at a time; calls for
// different peers may run concurrently.
class FrameHandler {
 public:
  virtual ~FrameHandler() = default;
  virtual void on_open(const std::shared_ptr<WsPeer>&) {}
  // `text` is valid only during the call; its size is at most twice Config::ws_message_max (the
  // handler answers what lies between, e.g. with an error naming the limit).
  virtual void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) = 0;
  // Once per opened peer, when its connection has ended; sends after this are dropped.
  virtual void on_close(const std::shared_ptr<WsPeer>&) {}
};

// Until the protocol layer lands: every text frame gets an `error` reply.
class UnknownTypeHandler final : public FrameHandler {
 public:
  void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) override;
};

}  // namespace tanbo_server::server
