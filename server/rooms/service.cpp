#include "server/rooms/service.hpp"

#include <condition_variable>

#include "engine/core/registry.hpp"

#include "server/rooms/lobby.hpp"
#include "server/version.hpp"

namespace tanbo_server::server {

ServiceOptions service_options(const Config& c) {
  ServiceOptions o;
  o.threads = c.room_threads;
  o.limits.rate_burst = c.rate_burst;
  o.limits.rate_per_second = c.rate_per_second;
  o.limits.rate_strikes = int(c.rate_strikes);
  o.limits.bot_rate_burst = c.bot_rate_burst;
  o.limits.bot_rate_per_second = c.bot_rate_per_second;
  o.limits.max_rooms = int(c.max_rooms);
  o.limits.rooms_per_address = int(c.rooms_per_address);
  o.guests_per_minute = c.guests_per_minute;
  o.pools.wave = std::chrono::milliseconds(c.pool_wave_ms);
  o.pools.instant_rooms = int(c.pool_instant_rooms);
  o.limits.max_frame = c.ws_message_max;
  o.room.retention = std::chrono::seconds(c.retention);
  o.bots.threads = c.bot_threads;
  o.bots.budget = std::chrono::milliseconds(c.bot_budget_ms);
  o.room.takeover_grace = std::chrono::seconds(c.takeover_grace);
  o.room.timer_second = std::chrono::milliseconds(c.timer_second_ms);
  o.ranked_requires_account = c.ranked_requires_account;
  return o;
}

RoomService::RoomService(ServiceOptions o)
    : ioc_(std::make_shared<boost::asio::io_context>(static_cast<int>(std::max(1u, o.threads)))),
      work_(ioc_->get_executor()) {
  services_ = std::make_shared<Services>();
  services_->rooms_executor = ioc_->get_executor();
  services_->lobby = std::make_shared<Lobby>(ioc_->get_executor(), o.lobby_push);
  services_->identities = o.identities ? o.identities : std::make_shared<MemoryIdentities>();
  services_->journal = o.journal ? o.journal : std::make_shared<MemoryJournal>();
  services_->accounts = o.accounts;
  services_->ranked_requires_account = o.ranked_requires_account;
  services_->room = o.room;
  bots_ = services_->room.bots = std::make_shared<BotPool>(o.bots);
  services_->limits = o.limits;
  if (o.guests_per_minute) services_->guests = std::make_shared<GuestLimit>(o.guests_per_minute);
  services_->server_name = "tanbo-server " + std::string(version());
  services_->challenges = std::make_shared<pairing::Challenges>();
  services_->make_room = [this](const pairing::NewRoom& r) { return make_room(r); };
  pools_options_ = o.pools;
  rating_ = o.rating;
  start_pools(std::make_unique<pairing::MemorySeeks>());
  remote_services_ = std::make_shared<Services>(*services_);
  remote_services_->limits.rate_burst = remote_services_->limits.rate_per_second = 1e9;
  for (unsigned i = 0; i < std::max(1u, o.threads); ++i)
    threads_.emplace_back([ioc = ioc_] { ioc->run(); });
}

std::size_t RoomService::settle(std::chrono::milliseconds grace) {
  services_->stopping->store(true);  // remote_services_ shares it
  struct Count {
    std::mutex mutex;
    std::condition_variable done;
    std::size_t left = 0;
  };
  auto count = std::make_shared<Count>();
  auto rooms = services_->lobby->rooms();
  count->left = rooms.size();
  for (const auto& r : rooms)
    r->settled([count] {
      std::lock_guard lock(count->mutex);
      if (--count->left == 0) count->done.notify_all();
    });
  std::unique_lock lock(count->mutex);
  count->done.wait_for(lock, grace, [&] { return count->left == 0; });
  return count->left;
}

void RoomService::start_pools(std::unique_ptr<pairing::SeekStore> store) {
  pairing::Pools::Hooks hooks;
  hooks.create_room = [this](const pairing::NewRoom& r) { return make_room(r); };
  hooks.deliver = [this](const pairing::Seeker& s, const std::string& room, int seat) {
    paired(s.peer, s.seek, "", room, seat);
  };
  hooks.present = [challenges = services_->challenges] { return challenges->identities(); };
  hooks.rating = rating_;
  hooks.publish = [lobby = services_->lobby](protocol::Json pools) {
    lobby->set_pools(std::move(pools));
  };
  if (services_->pools) services_->pools->stop();
  services_->pools = std::make_shared<pairing::Pools>(pools_options_, std::move(store), hooks);
}

void RoomService::use_seeks(std::unique_ptr<pairing::SeekStore> store, std::string node) {
  services_->node = remote_services_->node = node;
  pools_options_.node = std::move(node);
  start_pools(std::move(store));
  remote_services_->pools = services_->pools;
}

void RoomService::unsay(const std::string& room, protocol::Channel channel, std::int64_t n) {
  if (auto r = services_->lobby->find(room)) return r->unsay(channel, n);
  if (remote_.unsay) remote_.unsay(room, channel, n);
}

void RoomService::moderate(const std::string& identity, std::optional<std::int64_t> shadow_until,
                           std::optional<bool> banned) {
  if (shadow_until) services_->identities->set_shadow_mute(identity, *shadow_until);
  if (banned) services_->identities->set_ban(identity, *banned);
  auto standing = services_->identities->standing(identity);
  for (const auto& c : services_->challenges->clients(identity)) c->restand(standing);
  if (remote_.standing_changed)
    remote_.standing_changed(identity, standing.banned, standing.shadow_until);
}

void RoomService::set_remote(Remote remote) {
  remote_ = std::move(remote);
  services_->tell_revoked = [revoked = remote_.revoked](const std::string& identity) {
    if (revoked) revoked(identity, {});
  };
  services_->tell_identity = remote_services_->tell_identity = remote_.to_identity;
}

void RoomService::tell_identity(const std::string& identity, const protocol::Frame& frame,
                                bool open_only, std::uint64_t except_peer) {
  Client::tell_here(*services_->challenges, identity, frame, open_only, except_peer);
}

void RoomService::close_connections(const std::string& identity, bool everywhere,
                                    const std::string& token_hash) {
  for (const auto& c : services_->challenges->clients(identity))
    if (token_hash.empty() || c->holds(token_hash)) c->revoked();
  if (everywhere && remote_.revoked) remote_.revoked(identity, token_hash);
}

void RoomService::refresh_standing(const std::string& identity, bool banned,
                                   std::int64_t shadow_until) {
  auto standing = services_->identities->standing(identity);
  standing.banned = banned;
  standing.shadow_until = shadow_until;
  for (const auto& c : services_->challenges->clients(identity)) c->restand(standing);
}

std::string RoomService::make_room(const pairing::NewRoom& r) {
  const auto* info = engine::find_game(r.terms.game);
  if (!info) return {};
  RoomSetup setup{services_->lobby->fresh_id(),
                  info,
                  r.terms.options,
                  nullptr,
                  r.terms.players.value_or(info->default_players),
                  r.terms.ranked,
                  Identity{}};
  setup.timer = timer_settings(r.terms.timer);
  auto room = std::make_shared<Room>(*services_->rooms_executor, std::move(setup), services_->room,
                                     services_->lobby, services_->journal);
  services_->lobby->add(room);
  // A pool's seekers come with their id and name: the seats show their account and bot marks too.
  auto seats = r.seats;
  for (auto& who : seats)
    if (who.username.empty() && !who.id.starts_with("cpu:"))
      if (auto known = services_->identities->by_id(who.id)) who = std::move(*known);
  room->open_seated(seats);
  return room->id();
}

void RoomService::paired(std::uint64_t peer_id, const std::string& seek,
                         const std::string& challenge, const std::string& room, engine::Seat seat) {
  if (auto c = client(peer_id)) c->paired(seek, challenge, room, seat);
}

void RoomService::shutdown() {
  {
    std::lock_guard lock(shutdown_mutex_);
    shut_down_ = true;
  }
  services_->pools->stop();  // no wave makes a room from now on
  // The bots answer at once and ask nothing more; pending timers would keep the threads running.
  bots_->shutdown();
  for (const auto& summary : services_->lobby->list(std::nullopt))
    if (auto r = services_->lobby->find(summary.room)) r->stop();
  work_.reset();  // run() returns once the queued work (and a pending lobby push) is done
  for (auto& t : threads_)
    if (t.joinable() && t.get_id() != std::this_thread::get_id()) t.join();
  if (services_->accounts) services_->accounts->stop();
}

RoomService::~RoomService() {
  services_->pools->stop();  // its thread makes rooms here
  bots_->shutdown();  // before the rooms' threads: a bot's answer is posted to a room's strand
  services_->lobby->clear();
  work_.reset();
  ioc_->stop();
  for (auto& t : threads_) {
    if (!t.joinable()) continue;
    if (t.get_id() == std::this_thread::get_id())
      t.detach();
    else
      t.join();
  }
}

std::shared_ptr<Room> RoomService::restore(RoomSetup setup, RoomRestore state) {
  std::lock_guard lock(shutdown_mutex_);
  if (shut_down_) return nullptr;
  return Room::restore(*services_->rooms_executor, std::move(setup), services_->room,
                       services_->lobby, services_->journal, std::move(state));
}

void RoomService::set_forwarder(std::shared_ptr<Forwarder> forwarder) {
  services_->forwarder = std::move(forwarder);
}

std::shared_ptr<Client> RoomService::remote_client(std::uint64_t peer_id, Identity who,
                                                   std::function<void()> credit,
                                                   std::function<void()> chat_credit) const {
  return std::make_shared<Client>(peer_id, remote_services_, std::move(who), std::move(credit),
                                  std::move(chat_credit));
}

void RoomService::credit(std::uint64_t peer_id) {
  if (auto c = client(peer_id)) c->credit();
}

void RoomService::chat_credit(std::uint64_t peer_id) {
  if (auto c = client(peer_id)) c->chat_credit();
}

std::shared_ptr<Client> RoomService::client(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = clients_.find(id);
  return it == clients_.end() ? nullptr : it->second;
}

void RoomService::on_open(const std::shared_ptr<WsPeer>& peer) {
  auto c = std::make_shared<Client>(peer->id(), services_);
  c->attach(peer);
  std::lock_guard lock(mutex_);
  clients_[peer->id()] = std::move(c);
}

void RoomService::on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) {
  if (auto c = client(peer->id())) c->on_text(peer, text);
}

void RoomService::on_close(const std::shared_ptr<WsPeer>& peer) {
  std::shared_ptr<Client> c;
  {
    std::lock_guard lock(mutex_);
    auto it = clients_.find(peer->id());
    if (it == clients_.end()) return;
    c = std::move(it->second);
    clients_.erase(it);
  }
  c->on_close();
}

}  // namespace tanbo_server::server
