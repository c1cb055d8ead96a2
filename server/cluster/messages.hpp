#pragma once
// What the nodes of a cluster say to each other on their channels (tanbo:to:<node>), one struct
// per kind. A message is a JSON head on the first line, its kind in "k", then a body verbatim (a
// client's request, or a frame), so a frame is never escaped into another JSON document.
//
// This file and messages.cpp are the only places a kind is spelled: the relay and the pools
// build these structs and read them back. Every head also carries its sender's "from", "run"
// and "seq" once published (link_order.hpp); those belong to the link, not to the message.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/client.hpp"
#include "server/net/frame_handler.hpp"

namespace tanbo_server::server::cluster {

// A client's request about something node `from` does not hold, from its connection `peer`
// (the body is the request as the client sent it). The identity and its standing travel with
// it: the receiving node's rooms see the connection as this node's would.
struct Request {
  std::string from;
  std::uint64_t peer = 0;
  std::string id, name, username;
  std::vector<std::string> mutes;
  std::int64_t shadow_until = 0;
  // A standing's change the sender waits on: answered Followed once it is in the rooms' queues.
  std::optional<std::uint64_t> ticket;
  int protocol = 1;  // the version the connection speaks; absent (an older node's): 1
  bool bot = false, play_bots = false;  // the identity's (docs/bots-write.md)
  friend bool operator==(const Request&, const Request&) = default;
};
// A frame for the sender's connections `peers` (the body). With `split`, two frames with
// nothing between them: the body's first `split` bytes, then the rest.
struct Frame {
  std::vector<std::uint64_t> peers;
  std::optional<std::size_t> split;
  friend bool operator==(const Frame&, const Frame&) = default;
};
// Close the receiver's connection `peer` with `code`.
struct Close {
  std::uint64_t peer = 0;
  CloseCode code = CloseCode::going_away;
  friend bool operator==(const Close&, const Close&) = default;
};
// Connection `peer` of node `from` closed: the receiver's rooms let it go.
struct Bye {
  std::string from;
  std::uint64_t peer = 0;
  friend bool operator==(const Bye&, const Bye&) = default;
};
// A move of the receiver's connection `peer` was accepted: its rate limit's token comes back.
struct Credit {
  std::uint64_t peer = 0;
  friend bool operator==(const Credit&, const Credit&) = default;
};
// A chat line of the receiver's connection `peer` was refused: its chat token comes back.
struct ChatCredit {
  std::uint64_t peer = 0;
  friend bool operator==(const ChatCredit&, const ChatCredit&) = default;
};
// The Request numbered `ticket` is in the rooms' queues.
struct Followed {
  std::uint64_t ticket = 0;
  friend bool operator==(const Followed&, const Followed&) = default;
};
// Nothing but the link's number: sent where a message may have been lost, so a gap shows.
struct Sync {
  friend bool operator==(const Sync&, const Sync&) = default;
};
// Messages between node `from` and the receiver were lost: every connection across starts again.
struct Reset {
  std::string from;
  friend bool operator==(const Reset&, const Reset&) = default;
};
// The seek `seek` of the receiver's connection `peer` was paired into `room`, at `seat`.
struct Paired {
  std::uint64_t peer = 0;
  std::string seek, room;
  int seat = 0;
  friend bool operator==(const Paired&, const Paired&) = default;
};
// Chat line `n` of `room`'s `channel` was removed by an operator.
struct Unsay {
  std::string room;
  protocol::Channel channel = protocol::Channel::players;
  std::int64_t n = 0;
  friend bool operator==(const Unsay&, const Unsay&) = default;
};
// `identity`'s ban and shadow mute changed: its connections on the receiver follow.
struct StandingChanged {
  std::string identity;
  bool banned = false;
  std::int64_t shadow_until = 0;
  friend bool operator==(const StandingChanged&, const StandingChanged&) = default;
};
// `identity`'s tokens were revoked (only `token`, a token's hash, when not empty).
struct Revoked {
  std::string identity;
  std::string token;
  friend bool operator==(const Revoked&, const Revoked&) = default;
};

// The body, a frame, for `identity`'s connections on the receiver (`open_only`: those taking
// challenges), but connection `except_peer` when `except_node` is the receiver.
struct ToIdentity {
  std::string identity;
  bool open_only = false;
  std::string except_node;
  std::uint64_t except_peer = 0;
  friend bool operator==(const ToIdentity&, const ToIdentity&) = default;
};

using Message = std::variant<Request, Frame, Close, Bye, Credit, ChatCredit, Followed, Sync, Reset,
                             Paired, Unsay, StandingChanged, Revoked, ToIdentity>;

// The head of `m`, without the link's members.
nlohmann::json encode(const Message& m);

// A head as received: its message, or why it is refused (an unknown kind, a member missing or
// of the wrong type). Never throws.
struct Decoded {
  std::optional<Message> message;
  std::string refusal;  // empty when decoded
};
Decoded decode(const nlohmann::json& head);

// A message as published on a channel: the head's line, then the body.
std::string payload(const nlohmann::json& head, std::string_view body = {});
// A payload's head and body; nullopt when it has no first line that is a JSON object.
struct Parts {
  nlohmann::json head;
  std::string_view body;
};
std::optional<Parts> split_payload(std::string_view payload);

}  // namespace tanbo_server::server::cluster
