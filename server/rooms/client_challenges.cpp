// Direct challenges on a connection (docs/protocol.md, "Challenges"): one is sent, accepted,
// declined, cancelled; whether the connection takes them.
#include <openssl/rand.h>

#include "protocol/server.hpp"
#include "server/rooms/client.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

void Client::on(const protocol::Challenge& m, const Id& re) {
  if (m.player == identity_->id)
    return refuse(ErrorCode::bad_message, "field \"player\": you cannot challenge yourself", re);
  auto terms = checked_terms(m.terms, re);
  if (!terms || !may_rank(terms->ranked, re)) return;
  if (terms->players != 2)
    return refuse(protocol::Error{ErrorCode::bad_option,
                                  "a challenge is for two players",
                                  re,
                                  {{"players", "a challenge is for 2 players"}}});
  auto target = services_->identities->by_id(m.player);
  if (terms->ranked && services_->ranked_requires_account && target && target->username.empty())
    return refuse(ErrorCode::account_required,
                  "ranked games here are between accounts, and that player is a guest", re);
  if (!may_meet(target, re)) return;
  auto& challenges = *services_->challenges;
  switch (challenges.reach(m.player)) {
    case pairing::Challenges::Reach::offline:
      if (!services_->identities->by_id(m.player))
        return refuse(ErrorCode::no_such_player, "no player " + m.player, re);
      // In a cluster the player may be on another node: that one answers, and holds it.
      if (services_->forwarder) {
        forwarded_ = true;
        return services_->forwarder->forward(Forwarder::Target::identity, m.player, peer_,
                                             *identity_, standing_, text_, re);
      }
      return refuse(ErrorCode::player_offline, "that player is not connected", re);
    case pairing::Challenges::Reach::refused:
      return refuse(ErrorCode::challenges_refused, "that player takes no challenges", re);
    case pairing::Challenges::Reach::open:
      break;
  }
  auto id = challenges.open({{}, *identity_, weak_from_this(), m.player, *terms});
  services_->pools->note_challenge(id, true);
  reply(protocol::challenging(re, id));
  auto frame = protocol::challenged(
      id, {identity_->id, identity_->name, !identity_->username.empty(), identity_->bot}, *terms);
  tell(m.player, frame, true, false);
}

// Every connection of `identity` hears `frame`, written once: here, and in a cluster on each other
// node it is connected to; `open_only`: those taking challenges; `but_this`: not this connection
// (another node's, there).
void Client::tell(const std::string& identity, const protocol::Json& frame, bool open_only,
                  bool but_this) {
  const auto text = protocol::share(frame);
  tell_here(*services_->challenges, identity, text, open_only, but_this && !remote_ ? peer_id_ : 0);
  if (services_->tell_identity)
    services_->tell_identity(identity, text, open_only,
                             but_this && peer_ ? peer_->origin() : WsPeer::Origin{});
}

void Client::tell_here(const pairing::Challenges& challenges, const std::string& identity,
                       const protocol::Frame& frame, bool open_only, std::uint64_t except_peer) {
  for (const auto& to :
       open_only ? challenges.open_clients(identity) : challenges.clients(identity))
    if (to->peer_id_ != except_peer) to->push(frame);
}

// The challenge an accept, a decline (`as_target`) or a cancel answers, taken here and closed.
// An answer to one another node holds (the challenger's went to another of the identity's nodes,
// a cancel to the node of the one challenged) goes there; another node's connection has no
// forwarder here: it was sent to the right node already.
std::optional<pairing::OpenChallenge> Client::answered_here(const std::string& challenge,
                                                            bool as_target, const Id& re) {
  auto c = services_->challenges->take(challenge, identity_->id, as_target);
  if (c) {
    services_->pools->note_challenge(c->id, false);
  } else if (services_->forwarder) {
    forwarded_ = true;
    services_->forwarder->forward(Forwarder::Target::challenge, challenge, peer_, *identity_,
                                  standing_, text_, re);
  } else {
    refuse(ErrorCode::no_such_challenge, "no challenge " + challenge + " is open", re);
  }
  return c;
}

void Client::on(const protocol::Accept& m, const Id& re) {
  auto c = answered_here(m.challenge, true, re);
  if (!c) return;
  auto challenger = c->challenger.lock();
  if (!challenger) return refuse(ErrorCode::no_such_challenge, "the challenger has gone", re);
  // R6: who sits where is drawn; the room's first seat follows its options.
  std::vector<std::pair<Identity, std::shared_ptr<Client>>> seats = {
      {c->from, challenger}, {*identity_, shared_from_this()}};
  if (std::uint8_t draw = 0; RAND_bytes(&draw, 1) == 1 && (draw & 1)) std::swap(seats[0], seats[1]);
  auto room = services_->make_room({c->terms, {seats[0].first, seats[1].first}});
  if (room.empty()) return refuse(ErrorCode::internal, "the room could not be made", re);
  reply(protocol::ok(re));
  tell(identity_->id, protocol::challenge_ended(c->id, "accepted"), false, true);
  for (engine::Seat s = 0; s < 2; ++s) seats[std::size_t(s)].second->paired({}, c->id, room, s);
}

void Client::on(const protocol::Decline& m, const Id& re) {
  auto c = answered_here(m.challenge, true, re);
  if (!c) return;
  reply(protocol::ok(re));
  auto ended = protocol::challenge_ended(c->id, "declined");
  if (auto challenger = c->challenger.lock()) challenger->push(ended);
  tell(identity_->id, ended, false, true);
}

void Client::on(const protocol::Cancel& m, const Id& re) {
  auto c = answered_here(m.challenge, false, re);
  if (!c) return;
  reply(protocol::ok(re));
  tell(c->to, protocol::challenge_ended(c->id, "cancelled"), false, false);
}

void Client::on(const protocol::Challenges& m, const Id& re) {
  services_->challenges->set_open(identity_->id, peer_id_, m.open);
  reply(protocol::ok(re));
}

}  // namespace tanbo_server::server
