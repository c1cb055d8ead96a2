#include "server/rooms/client.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/core/registry.hpp"
#include "protocol/server.hpp"
#include "server/metrics/log_budget.hpp"
#include "server/metrics/metrics.hpp"
#include "server/pairing/terms.hpp"
#include "server/rooms/lobby.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

bool RateBucket::take(Clock::time_point now) {
  double dt = std::chrono::duration<double>(now - refilled_).count();
  refilled_ = now;
  double credited = credits_.exchange(0, std::memory_order_relaxed);
  tokens_ = std::min(burst_, tokens_ + credited + dt * per_second_);
  if (tokens_ < 1) return false;
  tokens_ -= 1;
  return true;
}

std::optional<std::int64_t> RateBucket::retry_ms() const {
  if (tokens_ >= 1) return 0;
  if (per_second_ <= 0) return std::nullopt;
  return std::int64_t(std::ceil((1 - tokens_) / per_second_ * 1000));
}

void RateBucket::reset(double burst, double per_second) {
  burst_ = burst;
  per_second_ = per_second;
  tokens_ = burst;
}

Client::Client(std::uint64_t peer_id, std::shared_ptr<Services> services)
    : peer_id_(peer_id),
      services_(std::move(services)),
      bucket_(std::make_shared<RateBucket>(services_->limits.rate_burst,
                                           services_->limits.rate_per_second)),
      credit_([b = bucket_] { b->credit(); }) {}

Client::Client(std::uint64_t peer_id, std::shared_ptr<Services> services, Identity who,
               std::function<void()> credit, std::function<void()> chat_credit)
    : Client(peer_id, std::move(services)) {
  identity_ = std::move(who);
  credit_ = std::move(credit);
  chat_credit_ = std::move(chat_credit);
  remote_ = true;
}

void Client::on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) {
  peer_ = peer;
  text_ = text;
  handle(text);
  peer_.reset();
  text_ = {};
}

void Client::handle(std::string_view text) {
  if (text.size() > services_->limits.max_frame) {
    refuse(ErrorCode::too_large,
           "frames are limited to " + std::to_string(services_->limits.max_frame) + " bytes", {});
    return peer_->close(CloseCode::too_big);
  }
  // Parsed before the bucket is asked: a dropped request is answered with its id like any other.
  auto parsed = protocol::parse(text);
  auto* e = std::get_if<protocol::Error>(&parsed);
  if (!bucket_->take(Clock::now())) {
    if (++strikes_ > services_->limits.rate_strikes) {
      spdlog::warn("ws {}: closed for sustained message flooding", peer_->id());
      return peer_->close(CloseCode::policy_error);
    }
    const Id& re = e ? e->re : std::get<protocol::Request>(parsed).id;
    return refuse(protocol::Error{ErrorCode::rate_limited,
                                  "too many messages; this one was dropped",
                                  re,
                                  {},
                                  bucket_->retry_ms()});
  }
  strikes_ = 0;  // a client that waits as told is never closed: only a flood in a row is
  if (e) return refuse(std::move(*e));
  auto& req = std::get<protocol::Request>(parsed);
  if (services_->stopping->load(std::memory_order_relaxed))
    return refuse(ErrorCode::internal, "the server is stopping; connect again in a moment", req.id);
  if (!identity_ && !std::holds_alternative<protocol::Hello>(req.message))
    return refuse(ErrorCode::not_hello, "send hello first", req.id);
  std::visit([&](const auto& m) { on(m, req.id); }, req.message);
}

void Client::on_close() {
  if (std::exchange(counted_bot_, false)) metrics::bot_connection(false);
  if (identity_ && services_->challenges) {
    services_->challenges->offline(identity_->id, peer_id_);
    // Its challenges go with it: the ones challenged hear so.
    for (const auto& c : services_->challenges->take_from(identity_->id, weak_from_this())) {
      services_->pools->note_challenge(c.id, false);
      tell(c.to, protocol::challenge_ended(c.id, "gone"), false, false);
    }
  }
  if (identity_ && services_->pools)
    for (auto& seek : seeks_) services_->pools->unseek(seek, identity_->id, nullptr);
  seeks_.clear();
  for (auto& [id, room] : rooms_) room->disconnect(peer_id_);
  rooms_.clear();
  if (watching_) services_->lobby->unwatch(peer_id_);
  if (forwarded_) services_->forwarder->closed(peer_id_);
}

void Client::reply(const protocol::Json& j) const { peer_->send(protocol::share(j)); }

void Client::refuse(protocol::Error e) {
  auto now = Clock::now();
  log_tokens_ =
      std::min(5.0, log_tokens_ + std::chrono::duration<double>(now - log_refilled_).count());
  log_refilled_ = now;
  metrics::rejected(e.code);
  // Per connection, then server-wide: a thousand flooding clients must not write a thousand lines.
  if (log_tokens_ >= 1 && metrics::rejection_log().take()) {
    log_tokens_ -= 1;
    spdlog::info("ws {}: rejected {}: {}{}", peer_->id(), protocol::to_string(e.code), e.message,
                 log_dropped_ ? fmt::format(" ({} more not logged)", log_dropped_) : "");
    log_dropped_ = 0;
  } else {
    ++log_dropped_;
  }
  reply(protocol::error(e));
}

void Client::refuse(ErrorCode code, std::string message, const Id& re) {
  refuse(protocol::Error{code, std::move(message), re, {}});
}

std::shared_ptr<Room> Client::room(const std::string& id, const Id& re) {
  auto r = services_->lobby->find(id);
  if (r) return r;
  if (services_->forwarder) {  // another node's room, perhaps: that node answers
    forwarded_ = true;
    services_->forwarder->forward(Forwarder::Target::room, id, peer_, *identity_, standing_, text_,
                                  re);
  } else {
    refuse(ErrorCode::no_such_room, "no room " + id, re);
  }
  return nullptr;
}

void Client::on(const protocol::Hello& m, const Id& re) {
  if (identity_) return refuse(ErrorCode::bad_message, "hello was already sent", re);
  if (logging_in_) return refuse(ErrorCode::bad_message, "a login is being answered", re);
  const int version = m.protocol.value_or(protocol::kOldestProtocol);
  if (version < protocol::kOldestProtocol || version > protocol::kProtocolVersion)
    return refuse(ErrorCode::unsupported_protocol,
                  "this server speaks protocol versions " +
                      std::to_string(protocol::kOldestProtocol) + " to " +
                      std::to_string(protocol::kProtocolVersion),
                  re);
  peer_->speak(version);
  // m.name was checked and normalized by parse (bad_name); a name kept as it was is not chosen
  // again, so a name given before an account that looks like it keeps its name.
  if (m.login) {
    if (m.name && !not_reserved("name", *m.name, re)) return;
    return log_in(m, re);
  }
  if (m.token || m.access_token) {
    const std::string& token = m.token ? *m.token : *m.access_token;
    if (is_access_token(token) != bool(m.access_token))
      return refuse(ErrorCode::bad_token,
                    m.token ? "an access token is said as access_token" : "not an access token",
                    re);
    std::optional<Identity> found;
    try {
      found = services_->identities->find(token);
    } catch (const IdentitiesUnavailable&) {
      return refuse(ErrorCode::store_unavailable,
                    "the store cannot check this token now; say hello again shortly", re);
    }
    if (!found) return refuse(ErrorCode::bad_token, "unknown token", re);
    if (m.name && *m.name != found->name) {
      if (!may_choose("name", *m.name, found->id, re)) return;
      services_->identities->rename(found->id, *m.name);
      found->name = *m.name;
    }
    return welcome(std::move(*found), token, true, re);
  }
  if (m.name && !may_choose("name", *m.name, {}, re)) return;
  if (services_->guests && !services_->guests->allow(peer_->address()))
    return refuse(ErrorCode::too_many_guests,
                  "too many new identities from this address; try again in a minute, or say "
                  "hello with the token you were given",
                  re);
  NewIdentity made;
  try {
    made = services_->identities->create_guest(m.name.value_or(""), peer_->user_agent());
  } catch (const IdentitiesUnavailable&) {
    return refuse(ErrorCode::store_unavailable,
                  "the store cannot take a new identity now; say hello again shortly", re);
  }
  welcome(std::move(made.identity), std::move(made.token), false, re);
}

void Client::welcome(Identity who, std::string token, bool returning, const Id& re) {
  standing_ = services_->identities->standing(who.id);
  if (standing_.banned) {
    spdlog::info("ws {}: hello from {} refused: banned", peer_->id(), who.id);
    return refuse(ErrorCode::banned, "this identity is banned from this server", re);
  }
  identity_ = std::move(who);
  token_ = std::move(token);
  {
    std::lock_guard lock(token_mutex_);
    token_hash_ = token_hash(token_);
  }
  address_ = peer_->address();
  if (identity_->bot) {
    identity_->bot = false;  // became_bot() sets it with the bot's limit and metric
    became_bot();
  }
  spdlog::info("ws {}: hello from {} ({}{})", peer_->id(), identity_->id,
               returning ? "returning" : "new", identity_->bot ? ", a bot" : "");
  peer_->welcomed();
  if (services_->challenges)
    services_->challenges->online(identity_->id, peer_id_, weak_from_this());
  if (services_->pools) services_->pools->note_online();
  // With a known token every seat the identity holds comes back (docs/protocol.md, welcome).
  auto seats = services_->lobby->seats_of(identity_->id);
  reply(protocol::welcome(
      re, {identity_->id, identity_->name, !identity_->username.empty(), identity_->bot}, token_,
      services_->server_name, seats, standing_.mutes, identity_->username, peer_->protocol()));
}

void Client::on(const protocol::ListGames&, const Id& re) {
  reply(protocol::games(re, engine::all_games()));
}

void Client::on(const protocol::ListRooms& m, const Id& re) {
  // A cluster's other nodes' rooms too; the pools are the cluster's.
  reply(protocol::rooms(re, services_->lobby->listing(m.game), services_->lobby->pools(m.game)));
}

void Client::on(const protocol::WatchLobby&, const Id& re) {
  if (protocol::has_id(re)) reply(protocol::ok(re));  // before the first push
  watching_ = true;
  services_->lobby->watch(peer_);
}

void Client::on(const protocol::UnwatchLobby&, const Id& re) {
  watching_ = false;
  services_->lobby->unwatch(peer_->id());
  if (protocol::has_id(re)) reply(protocol::ok(re));
}

void Client::on(const protocol::Create& m, const Id& re) {
  const auto* info = engine::find_game(m.game);
  if (!info)
    return refuse(protocol::Error{
        ErrorCode::bad_option, "no game " + m.game, re, {{"game", "unknown game"}}});
  // "seats" is version 1's name of the count; a later version names it as seek and challenge do.
  if (m.v1_seats && peer_->protocol() > 1)
    return refuse(ErrorCode::bad_message, "field \"seats\": the player count is \"players\"", re);
  engine::Problems extra;
  int players = m.players.value_or(m.v1_seats.value_or(info->default_players));
  for (const auto& c : m.cpu) {
    if (c.seat == 0) extra.push_back({"cpu", "seat 0 is the creator's"});
    if (c.seat >= players)
      extra.push_back({"cpu", "seat " + std::to_string(c.seat) + " does not exist"});
  }
  if (!m.cpu.empty() && m.ranked) extra.push_back({"cpu", "ranked rooms seat people only"});
  if (!may_rank(m.ranked, re)) return;
  auto created = pairing::check_game(m.game, m.options, m.setup, players);
  for (auto& p : extra) created.problems.push_back(std::move(p));
  if (!created.problems.empty()) return refuse_options(std::move(created.problems), re);
  if (services_->lobby->open_rooms(identity_->id) >= services_->limits.max_rooms)
    return refuse(ErrorCode::too_many_rooms,
                  "at most " + std::to_string(services_->limits.max_rooms) + " unfinished rooms",
                  re);
  const std::string address = peer_->address();
  if (!address.empty() &&
      services_->lobby->open_rooms_from(address) >= services_->limits.rooms_per_address)
    return refuse(ErrorCode::too_many_rooms,
                  "at most " + std::to_string(services_->limits.rooms_per_address) +
                      " unfinished rooms from one address",
                  re);
  RoomSetup setup{
      services_->lobby->fresh_id(), info, created.options, m.setup, players, m.ranked, *identity_};
  setup.timer = timer_settings(m.timer);
  if (!m.spectator_chat) setup.timer["spectator_chat"] = false;  // the room's settings
  setup.cpu = m.cpu;
  setup.address = address;
  auto r = std::make_shared<Room>(*services_->rooms_executor, std::move(setup), services_->room,
                                  services_->lobby, services_->journal);
  services_->lobby->add(r);
  rooms_[r->id()] = r;
  r->open(peer_, *identity_, re);
  r->set_mutes(peer_id_, standing_.mutes);
}

void Client::on(const protocol::Join& m, const Id& re) {
  if (auto r = room(m.room, re)) {
    if (m.as == protocol::Role::player && !may_rank(r->ranked(), re)) return;
    rooms_[m.room] = r;
    r->join(peer_, *identity_, m, re, standing_.mutes);
  } else if (services_->forwarder) {
    remote_rooms_.insert(m.room);  // a mute or unmute goes there too
  }
}

void Client::on(const protocol::Act& m, const Id& re) {
  if (auto r = room(m.room, re)) r->act(peer_, m, re, credit_);
}

void Client::on(const protocol::Resign& m, const Id& re) {
  if (auto r = room(m.room, re)) r->resign(peer_, re);
}

void Client::on(const protocol::Rematch& m, const Id& re) {
  if (auto r = room(m.room, re)) r->rematch(peer_, re);
}

void Client::on(const protocol::Leave& m, const Id& re) {
  if (auto r = room(m.room, re)) {
    rooms_.erase(m.room);
    r->leave(peer_, re);
  }
}

void Client::on(const protocol::Resume& m, const Id& re) {
  if (auto r = room(m.room, re)) r->resume(peer_, m, re);
}

void Client::on(const protocol::FillCpu& m, const Id& re) {
  if (auto r = room(m.room, re)) r->fill_cpu(peer_, m.level, re);
}

void Client::on(const protocol::Ping&, const Id& re) { reply(protocol::pong(re)); }

void Client::on(const protocol::MyGames&, const Id& re) {
  reply(protocol::my_games(re, services_->lobby->games_of(identity_->id, false)));
}

// ---- Play now and challenges (docs/protocol.md, "Play now") ---------------------------------

void Client::push(const protocol::Json& j) const { push(protocol::share(j)); }

void Client::push(const protocol::Frame& frame) const {
  if (auto p = self_peer_.lock()) p->send(frame);
}

void Client::on_strand(std::function<void(Client&)> fn) {
  auto p = self_peer_.lock();
  if (!p) return;
  p->post([self = shared_from_this(), p, fn = std::move(fn)] {
    self->peer_ = p;
    fn(*self);
    self->peer_.reset();
  });
}

void Client::paired(std::string seek, std::string challenge, std::string room, engine::Seat seat) {
  on_strand([seek = std::move(seek), challenge = std::move(challenge), room = std::move(room),
             seat](Client& c) {
    if (!seek.empty()) std::erase(c.seeks_, seek);
    c.reply(protocol::paired(seek, challenge, room, seat));
    // As a join would: the seat is already this identity's, so it comes back with a state. The
    // join as a client sends it, for a room on another node.
    protocol::Join join{room, protocol::Role::player, seat};
    const std::string text = protocol::to_json(protocol::Request{Id{}, join}).dump();
    c.text_ = text;
    c.on(join, Id{});
    c.text_ = {};
  });
}

std::optional<protocol::GameTerms> Client::checked_terms(const protocol::GameTerms& t,
                                                         const Id& re) {
  auto checked = pairing::check_terms(t);
  if (checked.problems.empty()) return std::move(checked.terms);
  refuse_options(std::move(checked.problems), re);
  return std::nullopt;
}

void Client::refuse_options(engine::Problems problems, const Id& re) {
  auto n = problems.size();
  refuse(protocol::Error{ErrorCode::bad_option,
                         std::to_string(n) + (n == 1 ? " field refused" : " fields refused"), re,
                         std::move(problems)});
}

void Client::on(const protocol::Seek& m, const Id& re) {
  auto terms = checked_terms(m.terms, re);
  if (!terms || !may_rank(terms->ranked, re) || !may_seek_pool(*terms, re)) return;
  pairing::Seeker s;
  s.identity = identity_->id;
  s.name = identity_->name;
  s.cpu_after_s = m.cpu_after.value_or(0);
  s.level = m.level;
  s.node = services_->node;
  s.peer = peer_id_;
  auto self = shared_from_this();
  services_->pools->seek(
      *terms, std::move(s), [self, re, pool = *terms](std::optional<std::string> seek) {
        if (!seek)
          return self->on_strand([re](Client& c) {
            c.refuse(ErrorCode::already_seeking, "you already wait in this pool", re);
          });
        if (seek->empty())
          return self->on_strand([re](Client& c) {
            c.refuse(ErrorCode::internal, "the pool could not take the seek; try again", re);
          });
        self->on_strand([seek = *seek, re, pool](Client& c) {
          c.seeks_.push_back(seek);
          c.reply(protocol::seeking(re, seek, pool));
        });
      });
}

void Client::on(const protocol::Unseek& m, const Id& re) {
  auto self = shared_from_this();
  services_->pools->unseek(m.seek, identity_->id, [self, re, seek = m.seek](bool removed) {
    self->on_strand([re, removed, seek](Client& c) {
      if (!removed) return c.refuse(ErrorCode::no_such_seek, "no seek " + seek + " waits", re);
      std::erase(c.seeks_, seek);
      c.reply(protocol::ok(re));
    });
  });
}

}  // namespace tanbo_server::server
