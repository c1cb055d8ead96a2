#pragma once
// A connection of another node, as the rooms here see it: what they send it goes back there,
// through the relay (relay.hpp).
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "server/net/frame_handler.hpp"

namespace tanbo_server::server::cluster {

class Relay;

// Where the callbacks of the other nodes' connections run, as a local connection's run on its
// strand: the requests the receiver hands their Clients, their closes, and work for them from
// elsewhere (a challenge accepted here). One strand on one thread of the relay's: each
// connection's callbacks in the order they were posted, one at a time, and the receiver free
// to read on meanwhile.
class RemoteTurns {
 public:
  RemoteTurns();
  ~RemoteTurns();  // finish()
  RemoteTurns(const RemoteTurns&) = delete;
  RemoteTurns& operator=(const RemoteTurns&) = delete;

  void post(std::function<void()> fn);
  // Returns once what was posted before has run. Not from a callback of its own.
  void drain();
  // Runs what is posted, then stops its thread; what is posted after never runs. Idempotent.
  void finish();

 private:
  boost::asio::thread_pool pool_{1};
  boost::asio::strand<boost::asio::thread_pool::executor_type> strand_;
};

class RemotePeer final : public WsPeer {
 public:
  RemotePeer(std::weak_ptr<Relay> relay, std::string node, std::uint64_t peer,
             std::uint64_t local_id);

  std::uint64_t id() const override { return id_; }
  void send(std::shared_ptr<const std::string> text) override;
  void send_both(std::shared_ptr<const std::string> first,
                 std::shared_ptr<const std::string> then) override;
  void close(CloseCode code) override;
  Origin origin() const override { return {node_, peer_}; }
  // On the relay's RemoteTurns, after what is posted there; dropped once the relay is gone.
  void post(std::function<void()> fn) override;

 private:
  std::weak_ptr<Relay> relay_;
  std::string node_;
  std::uint64_t peer_;
  std::uint64_t id_;
};

}  // namespace tanbo_server::server::cluster
