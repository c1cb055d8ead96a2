#pragma once
// The FrameHandler that serves the protocol: one Client per connection, rooms and the lobby on a
// pool of threads of their own (the engine never runs on a network thread).
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "server/config.hpp"
#include "server/net/frame_handler.hpp"
#include "server/rooms/client.hpp"

namespace tanbo_server::server {

struct ServiceOptions {
  unsigned threads = 1;
  RoomSettings room;
  ClientLimits limits;
  unsigned guests_per_minute = 0;  // new identities per address and minute; 0: no limit
  std::chrono::milliseconds lobby_push{500};
  std::shared_ptr<Identities> identities;        // null: in memory
  std::shared_ptr<RoomJournal> journal;          // null: in memory
  std::shared_ptr<accounts::Accounts> accounts;  // null: no accounts (no store)
  bool ranked_requires_account = false;
  BotPoolOptions bots;          // CPU decisions: threads of their own, and the budget
  pairing::PoolsOptions pools;  // Play now's waves
  // A seeker's rating in a game (may block: the pairing thread asks); empty: 1500 for all.
  std::function<double(const std::string& identity, const std::string& game)> rating;
};

// The service's settings as the server's configuration gives them.
ServiceOptions service_options(const Config& config);

class RoomService final : public FrameHandler {
 public:
  explicit RoomService(ServiceOptions options);
  ~RoomService() override;  // stops the room threads

  // The first step of a stop: from now on every request is answered `internal` ("stopping"),
  // and each room finishes the store writes it has in flight and broadcasts their states.
  // Waits at most `grace`; returns how many rooms had not settled by then.
  std::size_t settle(std::chrono::milliseconds grace);
  // Lets the rooms finish what is queued, then joins their threads. Call after the network has
  // stopped and before it is destroyed: no room work then still holds a connection. Idempotent.
  void shutdown();

  void on_open(const std::shared_ptr<WsPeer>& peer) override;
  void on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) override;
  void on_close(const std::shared_ptr<WsPeer>& peer) override;

  const Lobby& lobby() const { return *services_->lobby; }
  // How long a finished room stays (RoomSettings::retention).
  std::chrono::milliseconds retention() const { return services_->room.retention; }
  std::shared_ptr<Lobby> shared_lobby() const { return services_->lobby; }  // for the cluster
  // A room recovery rebuilt, on this service's threads, journal and lobby; null once shutdown()
  // has begun, when its timers would keep the threads being joined running.
  std::shared_ptr<Room> restore(RoomSetup setup, RoomRestore state);

  // --- A cluster's (server/cluster/relay.hpp); unused alone. ---
  // Requests about rooms the lobby does not hold go to `forwarder`. Call before the network.
  void set_forwarder(std::shared_ptr<Forwarder> forwarder);
  // A connection of another node, as this node's rooms see it: identified there, limited there
  // (no token bucket here: `credit` gives an accepted move's token back over there,
  // `chat_credit` a refused chat line's) and never forwarded again, so a room that moved
  // meanwhile is simply no_such_room.
  std::shared_ptr<Client> remote_client(std::uint64_t peer_id, Identity who,
                                        std::function<void()> credit,
                                        std::function<void()> chat_credit = {}) const;
  // An accepted move of connection `peer_id`, forwarded to another node: its token comes back.
  void credit(std::uint64_t peer_id);
  // A chat line of connection `peer_id` that another node's room refused: the chat's tokens
  // come back.
  void chat_credit(std::uint64_t peer_id);

  // --- Moderation (the admin API). ---
  Identities& identities() const { return *services_->identities; }
  accounts::Accounts* accounts() const { return services_->accounts.get(); }
  // A chat line an operator removed: its room (here, or its node in a cluster) tells its readers.
  void unsay(const std::string& room, protocol::Channel channel, std::int64_t n);
  // Shadow-mutes until a time (0 lifts it) and/or bans (or lifts the ban): kept with the identity;
  // its live connections follow at once (a ban closes them), here and on a cluster's other nodes.
  void moderate(const std::string& identity, std::optional<std::int64_t> shadow_until,
                std::optional<bool> banned);
  // A cluster's: where a room not here is told of a removed line, and an identity connected to
  // another node of its new standing.
  struct Remote {
    std::function<void(const std::string& room, protocol::Channel, std::int64_t n)> unsay;
    // Carries the new ban and shadow mute: the other node may read the store before it is written.
    std::function<void(const std::string& identity, bool banned, std::int64_t shadow_until)>
        standing_changed;
    // The identity's tokens were revoked (logout everywhere, a password change, a deletion), or
    // (`token_hash` not empty) that one token of it (a session its owner ended).
    std::function<void(const std::string& identity, const std::string& token_hash)> revoked;
    // A frame for the identity's connections on the other nodes it is connected to.
    Services::TellIdentity to_identity;
  };
  void set_remote(Remote remote);
  // The identity's tokens were revoked: its connections close, here and (`everywhere`) on the
  // cluster's other nodes; with `token_hash`, only those that said hello with that token.
  void close_connections(const std::string& identity, bool everywhere = true,
                         const std::string& token_hash = {});
  // Another node's frame for `identity`'s connections here (`open_only`: those taking
  // challenges), but connection `except_peer`.
  void tell_identity(const std::string& identity, const protocol::Frame& frame, bool open_only,
                     std::uint64_t except_peer);
  // Another node changed `identity`'s ban and shadow mute: its connections here follow.
  void refresh_standing(const std::string& identity, bool banned, std::int64_t shadow_until);

  // --- Play now. ---
  // A room every seat of which is taken (a pairing, an accepted challenge), on this node: its id.
  std::string make_room(const pairing::NewRoom& room);
  // Connection `peer_id` of this node holds `seat` of `room`, for its seek or challenge.
  void paired(std::uint64_t peer_id, const std::string& seek, const std::string& challenge,
              const std::string& room, engine::Seat seat);
  // A cluster's: the pools in `store` (which tells the other nodes' seekers), this node named
  // `node` in each seeker. Call before the network.
  void use_seeks(std::unique_ptr<pairing::SeekStore> store, std::string node);

 private:
  std::shared_ptr<Client> client(std::uint64_t id);

  // Shared with the threads: should the last owner let go on one of them, that thread is
  // detached rather than joined and keeps the context alive until its run() returns.
  std::shared_ptr<boost::asio::io_context> ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::shared_ptr<Services> services_;
  std::shared_ptr<Services> remote_services_;  // the same, without forwarder or rate limit
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, std::shared_ptr<Client>> clients_;
  std::vector<std::thread> threads_;
  std::mutex shutdown_mutex_;  // a restore is wholly before shutdown's stop of every room, or after
  bool shut_down_ = false;     // guarded by shutdown_mutex_
  std::shared_ptr<BotPool> bots_;
  pairing::PoolsOptions pools_options_;
  Remote remote_;
  std::function<double(const std::string&, const std::string&)> rating_;
  void start_pools(std::unique_ptr<pairing::SeekStore> store);
};

}  // namespace tanbo_server::server
