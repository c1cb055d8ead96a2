#include "server/cluster/messages.hpp"

#include <array>
#include <limits>
#include <type_traits>
#include <utility>

namespace tanbo_server::server::cluster {
namespace {

using Json = nlohmann::json;

// Whether `j` holds a T: an integer in its range where an integer is asked, and so on.
template <class T>
bool holds_a(const Json& j) {
  if constexpr (std::is_same_v<T, bool>) {
    return j.is_boolean();
  } else if constexpr (std::is_same_v<T, std::string>) {
    return j.is_string();
  } else if constexpr (std::is_unsigned_v<T>) {
    if (j.is_number_unsigned()) return j.get<std::uint64_t>() <= std::numeric_limits<T>::max();
    return j.is_number_integer() && j.get<std::int64_t>() >= 0 &&
           std::uint64_t(j.get<std::int64_t>()) <= std::numeric_limits<T>::max();
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.is_number_integer()) return false;
    if (j.is_number_unsigned())
      return j.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<T>::max());
    const auto v = j.get<std::int64_t>();
    return v >= std::numeric_limits<T>::min() && v <= std::numeric_limits<T>::max();
  } else {  // a vector
    if (!j.is_array()) return false;
    for (const auto& e : j)
      if (!holds_a<typename T::value_type>(e)) return false;
    return true;
  }
}

// Reads a head's members into a struct; the first one missing or malformed is the refusal.
class HeadReader {
 public:
  explicit HeadReader(const Json& head) : head_(head) {}

  template <class T>
  void required(const char* key, T& out) {
    read(key, out, true);
  }
  // Absent: `out` keeps its default.
  template <class T>
  void optional(const char* key, T& out) {
    read(key, out, false);
  }
  template <class T>
  void optional(const char* key, std::optional<T>& out) {
    T value{};
    if (head_.contains(key)) {
      read(key, value, true);
      out = value;
    }
  }
  void fail(std::string why) {
    if (refusal_.empty()) refusal_ = std::move(why);
  }
  const std::string& refusal() const { return refusal_; }

 private:
  template <class T>
  void read(const char* key, T& out, bool needed) {
    if (!refusal_.empty()) return;
    auto it = head_.find(key);
    if (it == head_.end()) {
      if (needed) fail(std::string("\"") + key + "\" is missing");
      return;
    }
    if (!holds_a<T>(*it)) return fail(std::string("\"") + key + "\" is not " + expected<T>());
    out = it->get<T>();
  }
  template <class T>
  static const char* expected() {
    if constexpr (std::is_same_v<T, bool>) return "a boolean";
    if constexpr (std::is_same_v<T, std::string>) return "a string";
    if constexpr (std::is_unsigned_v<T>) return "an unsigned integer in range";
    if constexpr (std::is_integral_v<T>) return "an integer in range";
    return "an array of the expected type";
  }

  const Json& head_;
  std::string refusal_;
};

// --- Each kind: its name, its members written, its members read. ---

Json head_of(const Request& m) {
  Json j = {{"k", "req"},       {"from", m.from},
            {"peer", m.peer},   {"id", m.id},
            {"name", m.name},   {"username", m.username},
            {"mutes", m.mutes}, {"shadow_until", m.shadow_until}};
  if (m.ticket) j["ticket"] = *m.ticket;
  j["protocol"] = m.protocol;
  if (m.bot) j["bot"] = true;
  if (m.play_bots) j["play_bots"] = true;
  return j;
}
void members_of(HeadReader& r, Request& m) {
  r.required("from", m.from);
  r.required("peer", m.peer);
  r.required("id", m.id);
  r.required("name", m.name);
  r.optional("username", m.username);
  r.optional("mutes", m.mutes);
  r.optional("shadow_until", m.shadow_until);
  r.optional("ticket", m.ticket);
  r.optional("protocol", m.protocol);
  r.optional("bot", m.bot);
  r.optional("play_bots", m.play_bots);
}

Json head_of(const Frame& m) {
  Json j = {{"k", "frame"}, {"peers", m.peers}};
  if (m.split) j["split"] = *m.split;
  return j;
}
void members_of(HeadReader& r, Frame& m) {
  r.required("peers", m.peers);
  r.optional("split", m.split);
}

Json head_of(const Close& m) { return {{"k", "close"}, {"peer", m.peer}, {"code", int(m.code)}}; }
void members_of(HeadReader& r, Close& m) {
  std::uint16_t code = 0;
  r.required("peer", m.peer);
  r.required("code", code);
  m.code = CloseCode(code);
}

Json head_of(const Bye& m) { return {{"k", "bye"}, {"from", m.from}, {"peer", m.peer}}; }
void members_of(HeadReader& r, Bye& m) {
  r.required("from", m.from);
  r.required("peer", m.peer);
}

Json head_of(const Credit& m) { return {{"k", "credit"}, {"peer", m.peer}}; }
void members_of(HeadReader& r, Credit& m) { r.required("peer", m.peer); }

Json head_of(const ChatCredit& m) { return {{"k", "chat_credit"}, {"peer", m.peer}}; }
void members_of(HeadReader& r, ChatCredit& m) { r.required("peer", m.peer); }

Json head_of(const Followed& m) { return {{"k", "followed"}, {"ticket", m.ticket}}; }
void members_of(HeadReader& r, Followed& m) { r.required("ticket", m.ticket); }

Json head_of(const Sync&) { return {{"k", "sync"}}; }
void members_of(HeadReader&, Sync&) {}

Json head_of(const Reset& m) { return {{"k", "reset"}, {"from", m.from}}; }
void members_of(HeadReader& r, Reset& m) { r.required("from", m.from); }

Json head_of(const Paired& m) {
  return {{"k", "paired"}, {"peer", m.peer}, {"seek", m.seek}, {"room", m.room}, {"seat", m.seat}};
}
void members_of(HeadReader& r, Paired& m) {
  r.required("peer", m.peer);
  r.required("seek", m.seek);
  r.required("room", m.room);
  r.required("seat", m.seat);
}

Json head_of(const Unsay& m) {
  return {
      {"k", "unsay"}, {"room", m.room}, {"channel", protocol::to_string(m.channel)}, {"n", m.n}};
}
void members_of(HeadReader& r, Unsay& m) {
  std::string channel;
  r.required("room", m.room);
  r.required("channel", channel);
  r.required("n", m.n);
  if (channel == protocol::to_string(protocol::Channel::players))
    m.channel = protocol::Channel::players;
  else if (channel == protocol::to_string(protocol::Channel::spectators))
    m.channel = protocol::Channel::spectators;
  else
    r.fail("\"channel\" is neither players nor spectators");
}

Json head_of(const StandingChanged& m) {
  return {{"k", "standing"},
          {"identity", m.identity},
          {"banned", m.banned},
          {"shadow_until", m.shadow_until}};
}
void members_of(HeadReader& r, StandingChanged& m) {
  r.required("identity", m.identity);
  r.optional("banned", m.banned);
  r.optional("shadow_until", m.shadow_until);
}

Json head_of(const Revoked& m) {
  return {{"k", "revoked"}, {"identity", m.identity}, {"token", m.token}};
}
void members_of(HeadReader& r, Revoked& m) {
  r.required("identity", m.identity);
  r.optional("token", m.token);
}

Json head_of(const ToIdentity& m) {
  return {{"k", "to_identity"},
          {"identity", m.identity},
          {"open_only", m.open_only},
          {"except_node", m.except_node},
          {"except_peer", m.except_peer}};
}
void members_of(HeadReader& r, ToIdentity& m) {
  r.required("identity", m.identity);
  r.optional("open_only", m.open_only);
  r.optional("except_node", m.except_node);
  r.optional("except_peer", m.except_peer);
}

// The kinds by name, in the variant's order.
template <class T>
Decoded decode_as(const Json& head) {
  HeadReader r(head);
  T m;
  members_of(r, m);
  if (!r.refusal().empty()) return {std::nullopt, r.refusal()};
  return {Message(std::move(m)), {}};
}
struct MessageKind {
  std::string_view name;
  Decoded (*decode)(const Json&);
};
constexpr std::array<MessageKind, std::variant_size_v<Message>> kMessageKinds{{
    {"req", decode_as<Request>},
    {"frame", decode_as<Frame>},
    {"close", decode_as<Close>},
    {"bye", decode_as<Bye>},
    {"credit", decode_as<Credit>},
    {"chat_credit", decode_as<ChatCredit>},
    {"followed", decode_as<Followed>},
    {"sync", decode_as<Sync>},
    {"reset", decode_as<Reset>},
    {"paired", decode_as<Paired>},
    {"unsay", decode_as<Unsay>},
    {"standing", decode_as<StandingChanged>},
    {"revoked", decode_as<Revoked>},
    {"to_identity", decode_as<ToIdentity>},
}};

}  // namespace

Json encode(const Message& m) {
  return std::visit([](const auto& message) { return head_of(message); }, m);
}

Decoded decode(const Json& head) {
  if (!head.is_object()) return {std::nullopt, "the head is not a JSON object"};
  auto k = head.find("k");
  if (k == head.end() || !k->is_string()) return {std::nullopt, "the head has no kind (\"k\")"};
  const auto& name = k->get_ref<const std::string&>();
  for (const auto& kind : kMessageKinds)
    if (kind.name == name) {
      Decoded d = kind.decode(head);
      if (!d.message) d.refusal = "a " + name + " message: " + d.refusal;
      return d;
    }
  return {std::nullopt, "no message has kind \"" + name + "\""};
}

std::string payload(const Json& head, std::string_view body) {
  std::string out = head.dump();
  out += '\n';
  out.append(body);
  return out;
}

std::optional<Parts> split_payload(std::string_view payload) {
  const auto eol = payload.find('\n');
  if (eol == std::string_view::npos) return std::nullopt;
  auto head = Json::parse(payload.substr(0, eol), nullptr, false);
  if (!head.is_object()) return std::nullopt;
  return Parts{std::move(head), payload.substr(eol + 1)};
}

}  // namespace tanbo_server::server::cluster
