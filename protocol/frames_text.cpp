// The frames a room sends at every step, each written once, as text, through a JsonText sink:
// `state`, its seats and its legal list, and the `ok` that answers a move. No tree, no sorted
// map, no copy of the game's parts. Members come in key order, so that each text is what
// serialize() makes of the same message parsed (the protocol tests hold them to that); a tree,
// where one is wanted, is the text parsed.
#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "protocol/players_sink.hpp"
#include "protocol/server.hpp"

namespace tanbo_server::protocol {
namespace {

using engine::JsonText;

void ints(JsonText& out, std::span<const int> xs) {
  out.begin_array();
  for (int x : xs) out.number(x);
  out.end_array();
}

void clock(JsonText& out, const Clock& c) {
  const bool running = c.seat != engine::kNoSeat,
             game_clock = c.control == TimeControl::Kind::clock;
  out.begin_object();
  out.member("at", c.at_ms);
  out.member("control", to_string(c.control));
  if (running) out.member("deadline", c.deadline_ms);
  if (game_clock) out.member("increment", c.increment_ms);
  if (running) out.member("left", c.left_ms);
  if (game_clock) {
    out.key("remaining");
    out.begin_array();
    for (std::int64_t ms : c.remaining) out.number(ms);
    out.end_array();
  }
  out.key("seat");
  if (running)
    out.number(c.seat);
  else
    out.null();
  out.end_object();
}

void pending(JsonText& out, const engine::Pending* p) {
  if (!p || p->seat == engine::kNoSeat) return out.null();
  out.begin_object();
  out.member("decision", p->decision);
  out.member("seat", p->seat);
  out.end_object();
}

void result(JsonText& out, const StateView& v) {
  out.begin_object();
  out.key("places");
  ints(out, v.result->places);
  if (v.ratings && v.ratings->is_array()) out.key("ratings"), out.json(*v.ratings);
  out.member("reason", v.result->reason);
  if (!v.takeover.empty()) out.key("takeover"), ints(out, v.takeover);
  out.end_object();
}

void id(JsonText& out, const Id& re) {
  if (const auto* n = std::get_if<std::int64_t>(&re))
    out.number(*n);
  else if (const auto* s = std::get_if<std::string>(&re))
    out.string(*s);
  else
    out.null();
}

}  // namespace

void write_player(engine::JsonSink& out, const Player& p) {
  out.begin_object();
  if (p.account) out.member("account", true);
  if (p.bot) out.member("bot", true);
  // The name the server gave a new guest ("Guest " and the four characters after the id's
  // first), which nobody else may choose: a page may say it in its reader's language.
  if (is_default_guest_name(p.id, p.name)) out.member("default_name", true);
  out.member("id", p.id);
  out.member("name", p.name);
  out.end_object();
}

void write_seats(engine::JsonSink& out, std::span<const SeatView> seats) {
  out.begin_array();
  for (const SeatView& s : seats) {
    out.begin_object();
    out.member("connected", s.connected);
    out.member("cpu", s.cpu);
    if (s.level) out.member("level", to_string(*s.level));
    out.key("player");
    if (s.player)
      write_player(out, *s.player);
    else
      out.null();
    out.member("seat", s.seat);
    out.end_object();
  }
  out.end_array();
}

std::string legal_text(const engine::Match& m) {
  std::string text;
  text.reserve(16 * m.legal().size() + 2);
  {
    JsonText out(text);
    out.begin_array();
    for (engine::Action a : m.legal()) m.game().write_action(a, out);
    out.end_array();
  }  // its last block written into `text`
  return text;
}

std::string seats_text(std::span<const SeatView> seats) {
  std::string text;
  {
    JsonText out(text);
    write_seats(out, seats);
  }
  return text;
}

std::string state_text(const StateView& v, const StateParts& parts) {
  std::string text;
  text.reserve(256 + parts.seats.size() + parts.state.size() + parts.events.size());
  {
    JsonText out(text);
    out.begin_object();
    if (v.clock) out.key("clock"), clock(out, *v.clock);
    out.member("commit", v.commit);
    out.key("events");
    out.serialized(parts.events.empty() ? std::string_view("[]") : parts.events);
    out.member("game", v.game);
    out.key("pending");
    pending(out, v.pending);
    if (!v.rematch.empty()) out.key("rematch"), ints(out, v.rematch);
    if (v.result) out.key("result"), result(out, v);
    out.member("room", v.room);
    out.key("seats");
    out.serialized(parts.seats);
    if (!v.seed.empty()) out.member("seed", v.seed);
    out.member("spectators", v.spectators);
    out.key("state");
    out.serialized(parts.state.empty() ? std::string_view("null") : parts.state);
    out.member("status", to_string(v.status));
    out.member("type", "state");
    out.key("version");
    out.unsigned_number(v.version);
    out.end_object();
  }
  return text;
}

std::string ok_text(const Id& re, std::string_view room, std::optional<std::uint64_t> version) {
  std::string text;
  text.reserve(48 + room.size());
  {
    JsonText out(text);
    out.begin_object();
    out.key("re");
    id(out, re);
    if (!room.empty()) out.member("room", room);
    out.member("type", "ok");
    if (version) out.key("version"), out.unsigned_number(*version);
    out.end_object();
  }
  return text;
}

}  // namespace tanbo_server::protocol
