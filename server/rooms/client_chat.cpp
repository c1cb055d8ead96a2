// A connection's chat (docs/protocol.md, "Chat"): the chat's buckets (its identity's and its
// address's, apart from the messages'), its mutes, its reports. The room does the rest.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "protocol/limits.hpp"
#include "server/rooms/client.hpp"
#include "server/rooms/room.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

using protocol::ErrorCode;
using protocol::Id;

void Client::on(const protocol::Say& m, const Id& re) {
  // Limited where the connection is: a line forwarded here was counted on its own node, which a
  // refusal here tells (chat_credit_) so that it gives the tokens back.
  auto give_back = chat_credit_;
  if (!remote_) {
    switch (services_->chat->take(identity_->id, address_)) {
      case ChatLimits::Verdict::taken:
        break;
      case ChatLimits::Verdict::identity_limited:
        return refuse(ErrorCode::chat_rate_limited,
                      "at most 5 chat lines at once, then one a second; this one was dropped", re);
      case ChatLimits::Verdict::address_limited:
        return refuse(ErrorCode::chat_rate_limited,
                      fmt::format("at most {} chat lines at once from one address, then {} a "
                                  "second; this one was dropped",
                                  protocol::kChatAddressBurst, protocol::kChatAddressPerSecond),
                      re);
    }
    give_back = [chat = services_->chat, id = identity_->id, address = address_] {
      chat->give_back(id, address);
    };
  }
  if (auto r = room(m.room, re))
    r->say(peer_, *identity_, m, standing_.shadowed(wall_ms()), re, std::move(give_back));
  else if (!services_->forwarder && give_back)  // no_such_room; a forwarded line's room answers
    give_back();
}

void Client::chat_credit() {
  on_strand([](Client& c) {
    if (c.identity_) c.services_->chat->give_back(c.identity_->id, c.address_);
  });
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
  // `ok` once the mute is stored (a crash right after keeps it) and each room of another node
  // this connection is in follows it through its stand-in there (a line said there after the
  // `ok` obeys it).
  auto done = reply_after(remote_rooms_.size() + 1, re);
  for (const auto& id : remote_rooms_)
    services_->forwarder->forward_standing(id, peer_, *identity_, standing_, text_,
                                           [done] { done(true); });
  services_->identities->after_stored(done);
}

// `count` steps must end, each saying whether it succeeded (the store's: stored); the last to
// end answers `ok`, or `internal` if one failed. The count is the strand's own.
std::function<void(bool)> Client::reply_after(std::size_t count, const Id& re) {
  auto left = std::make_shared<std::size_t>(count);
  auto failed = std::make_shared<bool>(false);
  return [weak = weak_from_this(), left, failed, re](bool ok) {
    if (auto self = weak.lock())
      self->on_strand([left, failed, re, ok](Client& c) {
        *failed = *failed || !ok;
        if (--*left) return;
        if (*failed)
          c.refuse(ErrorCode::internal, "not stored; try again", re);
        else
          c.reply(protocol::ok(re));
      });
  };
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
  services_->identities->after_stored(reply_after(1, re));  // kept through a crash right after
}

void Client::on(const protocol::SpectatorChat& m, const Id& re) {
  if (auto r = room(m.room, re)) r->set_spectator_chat(peer_, *identity_, m.open, re);
}

}  // namespace tanbo_server::server
