#include "protocol/server.hpp"

#include <array>
#include <cassert>

#include "engine/core/json_sink.hpp"
#include "engine/core/json_text.hpp"
#include "protocol/limits.hpp"
#include "protocol/players_sink.hpp"

namespace tanbo_server::protocol {
namespace {

constexpr std::array<std::string_view, 3> kStatuses = {"waiting", "playing", "finished"};

// Every reply names its request: `re` is the request's id, null when it carried none.
Json reply(std::string_view type, const Id& re) { return {{"type", type}, {"re", id_json(re)}}; }

Json player_json(const Player& p) {
  engine::JsonTree tree;
  write_player(tree, p);
  return tree.take();
}

Json seats_json(std::span<const SeatView> seats) {
  engine::JsonTree tree;
  write_seats(tree, seats);
  return tree.take();
}

}  // namespace

std::string_view to_string(RoomStatus s) { return kStatuses[std::size_t(s)]; }

bool is_default_guest_name(std::string_view id, std::string_view name) {
  return id.size() >= 5 && name.size() == 10 && name.starts_with("Guest ") &&
         name.substr(6) == id.substr(1, 4);
}

Json welcome(const Id& re, const Player& player, std::string_view token, std::string_view server,
             std::span<const SeatRef> seats, std::span<const std::string> mutes,
             std::string_view username, int protocol) {
  Json j = reply("welcome", re);
  j["player"] = player_json(player);
  j["token"] = token;
  j["protocol"] = protocol;
  Json& spoken = j["protocols"] = Json::array();
  for (int v = kOldestProtocol; v <= kProtocolVersion; ++v) spoken.push_back(v);
  j["server"] = server;
  Json& held = j["seats"] = Json::array();
  for (const auto& s : seats) held.push_back({{"room", s.room}, {"seat", s.seat}});
  j["mutes"] = Json(std::vector<std::string>(mutes.begin(), mutes.end()));
  if (!username.empty()) j["account"] = {{"username", username}};
  return j;
}

Json games(const Id& re, std::span<const engine::GameInfo* const> list) {
  Json j = reply("games", re);
  Json& out = j["games"] = Json::array();
  for (const auto* info : list) out.push_back(info->to_json());
  return j;
}

Json room_json(const RoomSummary& r) {
  Json j = {{"room", r.room},
            {"game", r.game},
            {"options", r.options},
            {"status", to_string(r.status)},
            {"seats", seats_json(r.seats)},
            {"spectators", r.spectators},
            {"ranked", r.ranked},
            {"timer", r.timer.to_json()},
            {"to_move", r.to_move ? Json(*r.to_move) : Json(nullptr)},
            {"spectator_chat", r.spectator_chat}};
  if (r.deadline_ms) j["deadline"] = *r.deadline_ms;
  return j;
}

Json my_games(const Id& re, Json games) {
  Json j = reply("my_games", re);
  j["games"] = std::move(games);
  return j;
}

Json rooms(const Id& re, Json entries, Json pools) {
  Json j = reply("rooms", re);
  j["rooms"] = std::move(entries);
  j["pools"] = std::move(pools);
  return j;
}

Json lobby(Json changed, std::span<const std::string> removed, const Json* pools) {
  Json j = {{"type", "lobby"}, {"changed", std::move(changed)}, {"removed", Json::array()}};
  for (const auto& id : removed) j["removed"].push_back(id);
  if (pools) j["pools"] = *pools;
  return j;
}

Json terms_json(const GameTerms& t) {
  Json j = {{"game", t.game},
            {"players", t.players.value_or(0)},
            {"options", t.options},
            {"timer", t.timer.to_json()},
            {"ranked", t.ranked}};
  if (t.bots) j["bots"] = true;  // absent otherwise: a pool for people keeps its id
  return j;
}

Json pool_json(const PoolSummary& p) {
  Json j = terms_json(p.terms);
  j["waiting"] = p.waiting;
  return j;
}

Json seeking(const Id& re, std::string_view seek, const GameTerms& pool) {
  Json j = reply("seeking", re);
  j["seek"] = seek;
  j["pool"] = terms_json(pool);
  return j;
}

Json paired(std::string_view seek, std::string_view challenge, std::string_view room, Seat seat) {
  Json j = {{"type", "paired"}, {"room", room}, {"seat", seat}};
  if (!seek.empty()) j["seek"] = seek;
  if (!challenge.empty()) j["challenge"] = challenge;
  return j;
}

Json challenging(const Id& re, std::string_view challenge) {
  Json j = reply("challenging", re);
  j["challenge"] = challenge;
  return j;
}

Json challenged(std::string_view challenge, const Player& from, const GameTerms& terms) {
  return {{"type", "challenged"},
          {"challenge", challenge},
          {"from", player_json(from)},
          {"terms", terms_json(terms)}};
}

Json challenge_ended(std::string_view challenge, std::string_view reason) {
  return {{"type", "challenge_ended"}, {"challenge", challenge}, {"reason", reason}};
}

Json created(const Id& re, std::string_view room, Seat seat) {
  Json j = reply("created", re);
  j["room"] = room;
  j["seat"] = seat;
  return j;
}

Json joined(const Id& re, std::string_view room, Role role, std::optional<Seat> seat,
            const Json* chat) {
  Json j = reply("joined", re);
  j["room"] = room;
  j["role"] = to_string(role);
  j["seat"] = seat ? Json(*seat) : Json(nullptr);
  if (chat) j["chat"] = *chat;
  return j;
}

Json said(const ChatView& v) {
  Json j = {{"type", "said"},
            {"room", v.room},
            {"channel", to_string(v.channel)},
            {"n", v.n},
            {"from", player_json(v.from)},
            {"at", v.at}};
  if (!v.phrase.empty())
    j["phrase"] = v.phrase;
  else
    j["text"] = v.text;
  return j;
}

Json unsaid(std::string_view room, Channel channel, std::int64_t n) {
  return {{"type", "unsaid"}, {"room", room}, {"channel", to_string(channel)}, {"n", n}};
}

Json left(const Id& re, std::string_view room) {
  Json j = reply("left", re);
  j["room"] = room;
  return j;
}

Json resumed(const Id& re, std::string_view room, std::uint64_t version,
             std::span<const Step> steps, bool gap, const Json* chat) {
  Json j = reply("resumed", re);
  j["room"] = room;
  j["version"] = version;
  j["gap"] = gap;
  if (chat) j["chat"] = *chat;
  Json& out = j["steps"] = Json::array();
  for (const auto& s : steps) out.push_back({{"version", s.version}, {"events", s.events}});
  return j;
}

Json error(const Error& e) {
  Json j = reply("error", e.re);
  j["code"] = to_string(e.code);
  j["message"] = e.message;
  if (!e.problems.empty()) {
    Json& ps = j["problems"] = Json::array();
    for (const auto& p : e.problems) ps.push_back({{"field", p.field}, {"message", p.message}});
  }
  if (e.retry_ms) j["retry_ms"] = *e.retry_ms;
  return j;
}

Json error(ErrorCode code, std::string message, const Id& re) {
  return error(Error{code, std::move(message), re, {}});
}

Json pong(const Id& re) { return reply("pong", re); }

Json ok(const Id& re, std::string_view room, std::optional<std::uint64_t> version) {
  return Json::parse(ok_text(re, room, version));
}

std::string serialize(const Json& j) {
  std::string out;
  engine::json_text::append(out, j);
  return out;
}

Frame share(const Json& j) { return std::make_shared<const std::string>(serialize(j)); }

std::string with_legal(std::string_view state_text, std::string_view legal_text) {
  assert(state_text.size() > 2 && state_text.back() == '}');
  static constexpr std::string_view kKey = ",\"legal\":";
  std::string out;
  out.reserve(state_text.size() + kKey.size() + legal_text.size());
  out.append(state_text.substr(0, state_text.size() - 1));  // drops the closing '}'
  out.append(kKey);
  out.append(legal_text);
  out.push_back('}');
  return out;
}

std::vector<std::string_view> server_types() {
  return {"welcome", "games",   "rooms",   "lobby",       "created",    "joined",
          "state",   "left",    "resumed", "error",       "pong",       "my_games",
          "ok",      "seeking", "paired",  "challenging", "challenged", "challenge_ended",
          "said",    "unsaid"};
}

}  // namespace tanbo_server::protocol
