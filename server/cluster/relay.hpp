#pragma once
// Any node serves any client for any room (docs/operations.md, "Cluster (Redis)", the message
// path). A request about a room another node runs goes to that node's channel; there it enters
// the room through a Client of its own (a RemotePeer stands for the connection), and whatever
// the room sends that peer comes back on this node's channel, to be written to the connection.
//
// One channel per node, tanbo:to:<node>, carries everything for it, so a peer's replies and
// states keep the order the room sent them in. A frame the room sends to several peers of one
// node (a state broadcast) crosses once, with the list of peers.
//
// Two threads with a connection each: the sender publishes what the rooms and connections queue
// (pipelined: one round trip for all that waits), the receiver hands what comes in to the rooms
// or the connections; the requests of other nodes' connections run on a third thread, in order
// (RemoteTurns, remote_peer.hpp). A node that leaves or dies takes its side with it: the
// connections that spoke to it are closed with going_away (clients reconnect and resume, to any
// node), and the rooms here let go of its connections as of closed ones. Messages are numbered per
// link (link_order.hpp): a message lost between two nodes does the same to the connections that
// spoke across that link, and a request that may have been lost is answered unknown_outcome.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "server/cluster/link_order.hpp"
#include "server/cluster/messages.hpp"
#include "server/cluster/redis.hpp"
#include "server/cluster/scripts.hpp"
#include "server/rooms/forwarder.hpp"

namespace tanbo_server::server {
class Lobby;
class RoomService;
class Client;
}  // namespace tanbo_server::server

namespace tanbo_server::server::cluster {

class RemotePeer;
class RemoteTurns;

class Relay final : public Forwarder, public std::enable_shared_from_this<Relay> {
 public:
  Relay(RedisAddress redis, std::string node, RedisTimeouts timeouts,
        std::shared_ptr<RoomService> rooms, std::shared_ptr<Lobby> lobby);
  ~Relay() override;  // stop()

  void start();
  // The first step of a clean stop: requests from other nodes are no longer taken (their
  // senders hear that nobody listens, and retry elsewhere once the rooms moved), and those taken
  // are in the rooms' queues on return; what the rooms here still send goes out until stop().
  void stop_receiving();
  // Stops both threads after sending what is queued; the remote connections' Clients are let
  // go. Idempotent; not from a remote connection's callback.
  void stop();

  // Forwarder: called on a connection's strand.
  void forward(Target target, const std::string& name, const std::shared_ptr<WsPeer>& peer,
               const Identity& who, const Standing& standing, std::string_view text,
               const protocol::Id& re) override;
  void forward_standing(const std::string& room, const std::shared_ptr<WsPeer>& peer,
                        const Identity& who, const Standing& standing, std::string_view text,
                        std::function<void()> followed) override;
  void closed(std::uint64_t peer_id) override;

  // The cluster's worker saw `node` go (its listing expired, or it said goodbye).
  void node_gone(const std::string& node);

  // What a RemotePeer hands the sender: a frame or a close for peer `peer` of node `node`;
  // `then`, a second frame that follows it with nothing between (WsPeer::send_both).
  void send_to(const std::string& node, std::uint64_t peer, std::shared_ptr<const std::string> text,
               std::shared_ptr<const std::string> then = nullptr);
  void close_on(const std::string& node, std::uint64_t peer, CloseCode code);
  // A move of peer `peer` of node `node` was accepted here: its token goes back there, ahead
  // of the frames that move causes. `chat`: a chat line of it was refused here, and the chat's
  // tokens go back instead.
  void credit_on(const std::string& node, std::uint64_t peer, bool chat = false);
  // Tells the node holding `name` (a room, or every node an identity is connected to) of a
  // change there: a removed chat line, a new standing, a frame for the identity (`body`).
  // Nobody holds it: nothing is sent.
  void notify(Target target, const std::string& name, Message message,
              std::shared_ptr<const std::string> body = nullptr);
  // Tells every other live node (revoked tokens: an identity may be connected to several).
  void notify_all(Message message);
  // Runs `fn` where the other nodes' connections' callbacks run, after what is queued there
  // (RemotePeer::post).
  void post_remote(std::function<void()> fn);

 private:
  // A notice's destination meaning every other live node; no node id has a '*'.
  static constexpr std::string_view kEveryNode = "*";

  // What waits for the sender, in order.
  struct Outgoing {
    enum Kind {
      request,  // a client's request: to the node that holds its target
      frame,    // a frame for another node's connection
      direct,   // a message for `node`
      notice    // a message for the node that holds `name`, or for every other node
    };
    Outgoing(Kind k, std::string to, std::uint64_t p, Message m = Sync{})
        : kind(k), node(std::move(to)), peer(p), message(std::move(m)) {}
    Kind kind;
    std::string node;  // where to; for a request, the owner when known
    std::uint64_t peer = 0;
    Message message;                                // request: its Request; direct, notice
    std::shared_ptr<const std::string> text;        // frame: the frame; request: the request
    std::shared_ptr<const std::string> then;        // frame: a second one, nothing between
    Target target = Target::room;                   // request, notice: what names its node...
    std::string name;                               // ...the room, identity or challenge
    std::weak_ptr<WsPeer> local;                    // request: where a no_such_room goes
    protocol::Id re;                                // request
    std::uint64_t ticket = 0;                       // request: a mute, answered Followed
    std::chrono::steady_clock::time_point since{};  // request: when it was asked
  };
  // A connection of this node that spoke to other nodes.
  struct Local {
    std::weak_ptr<WsPeer> peer;
    std::set<std::string> nodes;
  };
  // A connection of another node, as this node's rooms see it.
  struct Remote {
    std::shared_ptr<RemotePeer> peer;
    std::shared_ptr<Client> client;
  };
  using RemoteKey = std::pair<std::string, std::uint64_t>;  // node, its peer id

  // relay.cpp: what this node's connections and rooms hand the sender.
  void push(Outgoing o);
  Outgoing request(Target target, const std::string& name, const std::shared_ptr<WsPeer>& peer,
                   const Identity& who, const Standing& standing, std::string_view text,
                   std::uint64_t ticket);
  void close_locals(const std::function<bool(const Local&)>& which);

  // relay_tickets.cpp: the wait of a forwarded standing is over, its `followed` runs (any
  // thread; mutex_ not held).
  void settle(std::uint64_t ticket);
  void settle_sent_to(const std::string& node);  // every wait on `node`; empty: every wait

  // relay_send.cpp: the sender thread.
  // One message as published: its head (numbered on the way out) and its body.
  struct Published {
    std::string node;
    Message message;
    std::shared_ptr<const std::string> body;  // a frame's buffer, or a client's request
    std::shared_ptr<WsPeer> asker = {};       // a request: told when it may not have arrived
    std::string room = {};
    protocol::Id re = {};
    std::uint64_t ticket = 0;
  };
  // What one flush publishes, and what it learnt on the way.
  struct Batch {
    std::vector<Published> out;
    std::map<std::string, std::size_t> open_frame;  // node -> its last message, if a frame
    std::set<std::uint64_t> waiting;                // peers with a request deferred
    void add(Published p);
  };
  void send_loop();
  void flush(RedisConnection& redis, std::deque<Outgoing>& batch);
  void flush_request(RedisConnection& redis, Outgoing& o, Batch& batch);
  void flush_frame(Outgoing& o, Batch& batch);
  void flush_notice(RedisConnection& redis, Outgoing& o, Batch& batch);
  void publish(RedisConnection& redis, std::vector<Published>& out);
  // A numbered message to each node a message may have been lost on, so its receiver sees the
  // gap even when nothing else goes there.
  void sync_doubtful(RedisConnection& redis);
  // The target's nodes: a room's owner, a challenge's node, every node an identity is connected
  // to. Empty when Redis says nobody holds it, nullopt when Redis did not answer.
  std::optional<std::vector<std::string>> resolve(RedisConnection& redis, const Outgoing& o);
  Scripts scripts_;  // the sender's
  // The sender's: requests whose room has no owner yet (a room created a moment ago on another
  // node, whose claim is on its way), with every later request of their peers, in order.
  std::deque<Outgoing> deferred_;
  LinkStamps stamps_;
  // Nodes a message may have been lost on, since when: a sync goes there until one arrives.
  std::map<std::string, std::chrono::steady_clock::time_point> doubtful_;
  std::chrono::steady_clock::time_point last_sync_{};
  std::uint64_t lost_ = 0;  // messages Redis did not take since the last warning
  std::chrono::steady_clock::time_point lost_logged_{};

  // relay_receive.cpp: the receiver thread.
  void receive_loop();
  void on_message(std::string_view payload);
  void on(const Request& m, std::string_view body);
  void on(const Frame& m, std::string_view body);
  void on(const Close& m, std::string_view body);
  void on(const Bye& m, std::string_view body);
  void on(const Credit& m, std::string_view body);
  void on(const ChatCredit& m, std::string_view body);
  void on(const Followed& m, std::string_view body);
  void on(const Sync& m, std::string_view body);
  void on(const Reset& m, std::string_view body);
  void on(const Paired& m, std::string_view body);
  void on(const Unsay& m, std::string_view body);
  void on(const StandingChanged& m, std::string_view body);
  void on(const Revoked& m, std::string_view body);
  void on(const ToIdentity& m, std::string_view body);
  Remote& remote_for(const Request& m);
  void drop_remotes_of(const std::string& node);
  // Messages between here and `node` were lost, either way: every connection on either side of
  // the link starts again, as after a node's death; `tell`: the other side hears it too.
  void reset_link(const std::string& node, bool tell);

  RedisAddress redis_;
  std::string node_;
  RedisTimeouts timeouts_;
  std::shared_ptr<RoomService> rooms_;
  std::shared_ptr<Lobby> lobby_;

  mutable std::mutex mutex_;  // guards everything below but the threads' own state
  std::condition_variable wake_;
  std::deque<Outgoing> queue_;
  std::unordered_map<std::uint64_t, Local> locals_;
  std::vector<std::string> gone_;  // nodes the receiver must forget
  // Forwarded standings waiting for their node's word, by ticket: what runs then, and the node
  // once the sender knows it.
  struct Awaited {
    std::function<void()> followed;
    std::string node;
  };
  std::unordered_map<std::uint64_t, Awaited> awaited_;
  std::uint64_t next_ticket_ = 1;
  bool stopping_ = false;
  bool receiving_ = true;
  bool sender_done_ = false;  // what is pushed after goes nowhere

  // The receiver thread's.
  std::map<RemoteKey, Remote> remotes_;
  std::unique_ptr<RemoteTurns> turns_;  // the remote connections' Clients run there
  LinkArrivals arrivals_;
  std::uint64_t next_remote_id_ = std::uint64_t(1) << 62;  // never a local connection's id

  std::thread sender_, receiver_;
  bool started_ = false, stopped_ = false;
};

}  // namespace tanbo_server::server::cluster
