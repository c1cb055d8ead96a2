// A connection's chat (docs/protocol.md, "Chat"): its own bucket, apart from the messages',
// its mutes, its reports. The room does the rest.
#include <algorithm>
#include <chrono>

#include "server/rooms/client.hpp"
#include "server/rooms/room.hpp"
#include "server/wall_clock.hpp"

namespace tanbo::server {

using protocol::ErrorCode;
using protocol::Id;

void Client::on(const protocol::Say& m, const Id& re) {
  // Limited where the connection is: a forwarded line was counted on its own node.
  if (!remote_) {
    if (!chat_bucket_.take(Clock::now()))
      return refuse(ErrorCode::chat_rate_limited,
                    "at most 5 chat lines at once, then one a second; this one was dropped", re);
  }
  if (auto r = room(m.room, re)) r->say(peer_, *identity_, m, standing_.shadowed(wall_ms()), re);
}

void Client::on(const protocol::Mute& m, const Id& re) { mute(m.player, true, re); }
void Client::on(const protocol::Unmute& m, const Id& re) { mute(m.player, false, re); }

void Client::mute(const std::string& player, bool on, const Id& re) {
  if (remote_) {  // another node's connection: its own node wrote it; the rooms here follow
    apply_mute(standing_.mutes, player, on);
    for (auto& [id, room] : rooms_) room->set_mutes(peer_id_, standing_.mutes);
    return;
  }
  if (player == identity_->id)
    return refuse(ErrorCode::bad_message, "field \"player\": you cannot mute yourself", re);
  if (!services_->identities->by_id(player))
    return refuse(ErrorCode::no_such_player, "no player " + player, re);
  services_->identities->set_mute(identity_->id, player, on);
  apply_mute(standing_.mutes, player, on);
  for (auto& [id, room] : rooms_) room->set_mutes(peer_id_, standing_.mutes);
  // The rooms of other nodes this connection is in hear it through their own stand-in for it.
  for (const auto& id : remote_rooms_)
    services_->forwarder->forward(Forwarder::Target::room, id, peer_, *identity_, standing_, text_,
                                  Id{});
  reply_once_stored(re);
}

// `ok` once the identity's change is in the store: a crash right after it keeps it.
void Client::reply_once_stored(const Id& re) {
  services_->identities->after_stored([weak = weak_from_this(), re](bool stored) {
    if (auto self = weak.lock())
      self->on_strand([stored, re](Client& c) {
        if (stored)
          c.reply(protocol::ok(re));
        else
          c.refuse(ErrorCode::internal, "not stored; try again", re);
      });
  });
}

void Client::restand(Standing s) {
  on_strand([s = std::move(s)](Client& c) {
    c.standing_ = s;
    if (!s.banned) return;
    c.push(protocol::error(ErrorCode::banned, "this identity is banned from this server", Id{}));
    c.peer_->close(CloseCode::policy_error);
  });
}

void Client::on(const protocol::Report& m, const Id& re) {
  if (!services_->identities->by_id(m.player))
    return refuse(ErrorCode::no_such_player, "no player " + m.player, re);
  services_->identities->report(identity_->id, m.player, m.room.value_or(""), m.reason);
  reply_once_stored(re);
}

void Client::on(const protocol::SpectatorChat& m, const Id& re) {
  if (auto r = room(m.room, re)) r->set_spectator_chat(peer_, *identity_, m.open, re);
}

}  // namespace tanbo::server
