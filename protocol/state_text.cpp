// The `state` frame written as text in one pass. Every member of a room gets it at every step,
// so building it is paid per move: no tree, no sorted map, no copy of the game's parts, only
// appends to one string. The output is byte for byte serialize(state(v)): the same members in
// the same (sorted) order, the same escapes.
#include "engine/core/json_sink.hpp"
#include "engine/core/json_text.hpp"
#include "engine/core/match.hpp"
#include "protocol/server.hpp"

namespace tanbo::protocol {
namespace {

using engine::json_text::append_bool;
using engine::json_text::append_int;
using engine::json_text::append_string;
using engine::json_text::append_uint;

void append_key(std::string& out, std::string_view key) {
  out += '"';
  out += key;
  out += "\":";
}

void append_ints(std::string& out, std::span<const int> xs) {
  out += '[';
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (i) out += ',';
    append_int(out, xs[i]);
  }
  out += ']';
}

// {"at","control","deadline","increment","left","remaining","seat"}: the members state() writes,
// in their sorted order.
void append_clock(std::string& out, const Clock& c) {
  const bool running = c.seat != engine::kNoSeat,
             game_clock = c.control == TimeControl::Kind::clock;
  out += "{\"at\":";
  append_int(out, c.at_ms);
  out += ",\"control\":";
  append_string(out, to_string(c.control));
  if (running) out += ",\"deadline\":", append_int(out, c.deadline_ms);
  if (game_clock) out += ",\"increment\":", append_int(out, c.increment_ms);
  if (running) out += ",\"left\":", append_int(out, c.left_ms);
  if (game_clock) {
    out += ",\"remaining\":[";
    for (std::size_t i = 0; i < c.remaining.size(); ++i) {
      if (i) out += ',';
      append_int(out, c.remaining[i]);
    }
    out += ']';
  }
  out += ",\"seat\":";
  if (running)
    append_int(out, c.seat);
  else
    out += "null";
  out += '}';
}

}  // namespace

std::string legal_text(const engine::Match& m) {
  std::string out;
  out.reserve(16 * m.legal().size() + 2);
  {
    engine::JsonText sink(out);
    sink.begin_array();
    for (engine::Action a : m.legal()) m.game().write_action(a, sink);
    sink.end_array();
  }  // its last block written into `out`
  return out;
}

std::string seats_text(std::span<const SeatView> seats) {
  std::string out = "[";
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const SeatView& s = seats[i];
    if (i) out += ',';
    out += "{\"connected\":";
    append_bool(out, s.connected);
    out += ",\"cpu\":";
    append_bool(out, s.cpu);
    if (s.level) out += ",\"level\":", append_string(out, to_string(*s.level));
    out += ",\"player\":";
    if (s.player) {
      // Members in the order the tree writes them: account, default_name, id, name.
      out += s.player->account ? "{\"account\":true," : "{";
      if (is_default_guest_name(s.player->id, s.player->name)) out += "\"default_name\":true,";
      out += "\"id\":";
      append_string(out, s.player->id);
      out += ",\"name\":";
      append_string(out, s.player->name);
      out += '}';
    } else {
      out += "null";
    }
    out += ",\"seat\":";
    append_int(out, s.seat);
    out += '}';
  }
  out += ']';
  return out;
}

std::string state_text(const StateView& v, const StateParts& parts) {
  std::string out;
  out.reserve(256 + parts.seats.size() + parts.state.size() + parts.events.size());
  out += '{';
  if (v.clock) append_key(out, "clock"), append_clock(out, *v.clock), out += ',';
  append_key(out, "commit");
  append_string(out, v.commit);
  out += ",\"events\":";
  out += parts.events.empty() ? std::string_view("[]") : parts.events;
  out += ",\"game\":";
  append_string(out, v.game);
  out += ",\"pending\":";
  if (v.pending && v.pending->seat != engine::kNoSeat) {
    out += "{\"decision\":";
    append_string(out, v.pending->decision);
    out += ",\"seat\":";
    append_int(out, v.pending->seat);
    out += '}';
  } else {
    out += "null";
  }
  if (!v.rematch.empty()) out += ",\"rematch\":", append_ints(out, v.rematch);
  if (v.result) {
    out += ",\"result\":{\"places\":";
    append_ints(out, v.result->places);
    if (v.ratings && v.ratings->is_array()) out += ",\"ratings\":", out += v.ratings->dump();
    out += ",\"reason\":";
    append_string(out, v.result->reason);
    if (!v.takeover.empty()) out += ",\"takeover\":", append_ints(out, v.takeover);
    out += '}';
  }
  out += ",\"room\":";
  append_string(out, v.room);
  out += ",\"seats\":";
  out += parts.seats;
  if (!v.seed.empty()) out += ",\"seed\":", append_string(out, v.seed);
  out += ",\"spectators\":";
  append_int(out, v.spectators);
  out += ",\"state\":";
  out += parts.state.empty() ? std::string_view("null") : parts.state;
  out += ",\"status\":";
  append_string(out, to_string(v.status));
  out += ",\"type\":\"state\",\"version\":";
  append_uint(out, v.version);
  out += '}';
  return out;
}

}  // namespace tanbo::protocol
