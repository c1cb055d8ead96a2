// A room's chat (docs/protocol.md, "Chat"): two channels, the players' and the spectators',
// each numbered from 1; a line is stored before anyone reads it, like an action, and reaches
// those who may read its channel and have not muted its sender.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

#include "protocol/limits.hpp"
#include "server/metrics/metrics.hpp"
#include "server/rooms/room.hpp"
#include "server/wall_clock.hpp"

namespace tanbo_server::server {

using protocol::Channel;
using protocol::ErrorCode;

namespace {

std::size_t index(Channel c) { return std::size_t(c); }

constexpr auto kRepeatWindow = std::chrono::seconds(60);
constexpr std::size_t kRepeatKept = 3;  // an identity's last lines, compared with a new one

}  // namespace

// No line twice within a minute from one identity, whichever of its connections says it: asked
// only once the line is sayable, so a line refused for a closed channel can be sent again when
// it opens.
bool Room::repeats(const std::string& identity, const protocol::Say& s) {
  const auto now = std::chrono::steady_clock::now();
  auto stale = [&](const SaidAt& l) { return now - l.first > kRepeatWindow; };
  if (now - said_swept_ > kRepeatWindow) {  // the identities silent for a minute go
    said_swept_ = now;
    std::erase_if(said_,
                  [&](const auto& kv) { return kv.second.empty() || stale(kv.second.back()); });
  }
  auto& said = said_[identity];
  const std::string line = s.phrase.empty() ? s.text : "phrase:" + s.phrase;
  std::erase_if(said, stale);
  if (std::any_of(said.begin(), said.end(), [&](const auto& l) { return l.second == line; }))
    return true;
  said.emplace_back(now, line);
  while (said.size() > kRepeatKept) said.pop_front();
  return false;
}

bool Room::spectator_chat() const {
  if (!setup_.timer.is_object()) return true;
  auto it = setup_.timer.find("spectator_chat");
  return it == setup_.timer.end() || !it->is_boolean() || it->get<bool>();
}

// Players read their channel; spectators theirs, which the players read too once no game is
// being played (so watchers cannot coach a player).
bool Room::reads(const Member& m, Channel c) const {
  const bool seated = m.seat != engine::kNoSeat;
  if (c == Channel::players) return seated;
  return !seated || status() != protocol::RoomStatus::playing;
}

engine::Json Room::chat_for(const Member& m, std::optional<std::int64_t> players_after,
                            std::optional<std::int64_t> spectators_after) const {
  engine::Json out = engine::Json::object();
  for (Channel c : {Channel::players, Channel::spectators}) {
    if (!reads(m, c)) continue;
    const auto after = c == Channel::players ? players_after : spectators_after;
    auto lines = engine::Json::array();
    for (const auto& line : chat_[index(c)].recent) {
      if (after && line.at("n").get<std::int64_t>() <= *after) continue;
      const auto& from = line.at("from").at("id").get_ref<const std::string&>();
      if (std::binary_search(m.mutes.begin(), m.mutes.end(), from)) continue;
      lines.push_back(line);
    }
    out[std::string(protocol::to_string(c))] = std::move(lines);
  }
  return out;
}

void Room::say(Peer peer, Identity who, protocol::Say s, bool shadow, Id re,
               std::function<void()> refused) {
  enqueue_change(
      peer, re,
      [self = shared_from_this(), peer, who = std::move(who), s = std::move(s), shadow, re,
       refused] { self->do_say(peer, who, s, shadow, re, refused); },
      refused);
}

void Room::do_say(const Peer& peer, const Identity& who, const protocol::Say& s, bool shadow,
                  const Id& re, const std::function<void()>& refused) {
  auto refuse_line = [&](ErrorCode code, std::string message) {
    if (refused) refused();
    refuse(peer, code, std::move(message), re);
  };
  if (refusing()) return refuse_line(ErrorCode::internal, "the room has failed");
  Member* m = roster_.member(peer->id());
  if (!m) return refuse_line(ErrorCode::not_your_channel, "join the room to chat in it");
  const bool seated = m->seat != engine::kNoSeat;
  if (seated != (s.channel == Channel::players))
    return refuse_line(ErrorCode::not_your_channel,
                       seated ? "players write in the players' channel"
                              : "spectators write in the spectators' channel");
  if (s.channel == Channel::spectators && !spectator_chat())
    return refuse_line(ErrorCode::chat_closed, "the spectators' channel of this room is closed");
  if (repeats(who.id, s))
    return refuse_line(ErrorCode::chat_repeated, "you said that a moment ago");
  auto& channel = chat_[index(s.channel)];
  const std::int64_t at = wall_ms();
  // A shadow-muted line looks like any other to its sender; it takes no number of its own.
  const auto line = protocol::said({id(),
                                    s.channel,
                                    channel.next,
                                    {who.id, who.name, !who.username.empty(), who.bot},
                                    s.text,
                                    s.phrase,
                                    at});
  auto deliver = [this, peer, re, line, shadow, from = who.id, c = s.channel] {
    auto frame = protocol::share(line);
    for (const auto& member : roster_.members) {
      // A shadow-muted sender's line reaches its own connections only.
      if (shadow ? member.identity != from
                 : !reads(member, c) ||
                       std::binary_search(member.mutes.begin(), member.mutes.end(), from))
        continue;
      if (auto p = member.peer.lock()) p->send(frame);
    }
    metrics::chat_line();
    send_ok(peer, re);
  };
  if (shadow) return deliver();  // never stored: nobody else will ever read it
  ++channel.next;
  channel.recent.push_back(line);
  while (channel.recent.size() > protocol::kChatHistory) channel.recent.pop_front();
  journal({{JournalEntry::Kind::chat,
            id(),
            version_,
            m->seat,
            {{"channel", protocol::to_string(s.channel)},
             {"n", line.at("n")},
             {"identity", who.id},
             {"name", who.name},
             {"text", s.text},
             {"phrase", s.phrase},
             {"at", at}}}},
          deliver, {peer, re});
}

void Room::set_mutes(std::uint64_t peer_id, std::vector<std::string> mutes) {
  enqueue([self = shared_from_this(), peer_id, mutes = std::move(mutes)]() mutable {
    self->set_mutes_now(peer_id, std::move(mutes));
  });
}

void Room::set_mutes_now(std::uint64_t peer_id, std::vector<std::string> mutes) {
  std::sort(mutes.begin(), mutes.end());
  if (Member* m = roster_.member(peer_id)) m->mutes = std::move(mutes);
}

void Room::unsay(Channel channel, std::int64_t n) {
  enqueue([self = shared_from_this(), channel, n] {
    auto& recent = self->chat_[index(channel)].recent;
    std::erase_if(recent, [n](const engine::Json& l) { return l.at("n") == n; });
    auto frame = protocol::share(protocol::unsaid(self->id(), channel, n));
    for (const auto& member : self->roster_.members)
      if (self->reads(member, channel))
        if (auto p = member.peer.lock()) p->send(frame);
  });
}

void Room::set_spectator_chat(Peer peer, Identity who, bool open, Id re) {
  enqueue_change(peer, re, [self = shared_from_this(), peer, who = std::move(who), open, re] {
    if (who.id.empty() || who.id != self->owner())
      return self->refuse(peer, ErrorCode::not_seated, "only the room's creator may do that", re);
    if (!self->setup_.timer.is_object()) self->setup_.timer = engine::Json::object();
    self->setup_.timer["spectator_chat"] = open;
    self->journal({{JournalEntry::Kind::timer, self->id(), self->version_, engine::kNoSeat,
                    self->setup_.timer}},
                  [self, peer, re] {
                    self->publish();  // the lobby shows the room's channel open or closed
                    self->send_ok(peer, re);
                  },
                  {peer, re});
  });
}

}  // namespace tanbo_server::server
