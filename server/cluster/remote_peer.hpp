#pragma once
// A connection of another node, as the rooms here see it: what they send it goes back there,
// through the relay (relay.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "server/net/frame_handler.hpp"

namespace tanbo::server::cluster {

class Relay;

class RemotePeer final : public WsPeer {
 public:
  RemotePeer(std::weak_ptr<Relay> relay, std::string node, std::uint64_t peer,
             std::uint64_t local_id);

  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override;
  void send_both(std::shared_ptr<const std::string> first,
                 std::shared_ptr<const std::string> then) override;
  void close(CloseCode code) override;
  // The receiver thread hands this connection's requests to its Client; work for it from
  // elsewhere (a challenge accepted here) takes the same lock, so the Client sees one at a time.
  void post(std::function<void()> fn) override;
  std::recursive_mutex& turn() { return turn_; }

 private:
  std::recursive_mutex turn_;
  std::weak_ptr<Relay> relay_;
  std::string node_;
  std::uint64_t peer_;
  std::uint64_t id_;
};

}  // namespace tanbo::server::cluster
