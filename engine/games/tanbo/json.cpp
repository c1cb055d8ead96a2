// JSON of actions, state and the names events use. Documented in docs/rules/tanbo.md.
#include "engine/core/json_object.hpp"
#include "engine/core/json_read.hpp"
#include "engine/core/json_sink.hpp"
#include "engine/games/tanbo/codes.hpp"
#include "engine/games/tanbo/game.hpp"

namespace tanbo_server::engine::games::tanbo {
namespace {

const char* const kTokenNames[kTokens] = {"snake", "yellow", "black", "red", "farmer"};

// A paddy's tokens and a lot of rice, as the state and the events show them.
void write_paddy(JsonSink& out, const Tokens& t) {
  out.begin_object();
  out.member("black", t.n[Black]);
  out.member("farmer", t.n[Farmer] != 0);
  out.member("red", t.n[Red]);
  out.member("snakes", t.n[Snake]);
  out.member("yellow", t.n[Yellow]);
  out.end_object();
}

void write_seat(JsonSink& out, std::string_view key, Seat seat) {
  out.key(key);
  if (seat == kNoSeat)
    out.null();
  else
    out.value(seat);
}

void write_rice(JsonSink& out, const Rice& r) {
  out.begin_object();
  out.member("black", r.n[1]);
  out.member("red", r.n[2]);
  out.member("yellow", r.n[0]);
  out.end_object();
}

template <class T>
Json tree_of(void (*write)(JsonSink&, const T&), const T& t) {
  JsonTree tree;
  write(tree, t);
  return tree.take();
}

Json paddy_json(const Tokens& t) { return tree_of(write_paddy, t); }

std::optional<Token> token_named(const Json* j) {
  auto name = string_of(j);
  if (!name) return std::nullopt;
  for (int t = 0; t < kTokens; ++t)
    if (*name == kTokenNames[t]) return Token(t);
  return std::nullopt;
}

// Read back from rice_json(): the three colours, each in the field's 8 bits.
std::optional<Action> rice_named(Kind k, const Json* j) {
  if (!j) return std::nullopt;
  auto y = int_in(member(*j, "yellow"), 0, 255), b = int_in(member(*j, "black"), 0, 255),
       r = int_in(member(*j, "red"), 0, 255);
  if (!y || !b || !r) return std::nullopt;
  return rice_action(k, *y, *b, *r);
}

// One side of a swap: {"paddy": i, "token": name}.
std::optional<std::pair<int, Token>> swap_side(const Json& j) {
  auto paddy = int_in(member(j, "paddy"), 0, 15);
  auto token = token_named(member(j, "token"));
  if (!paddy || !token) return std::nullopt;
  return std::pair(*paddy, *token);
}

}  // namespace

const char* token_name(Token t) { return t < kTokens ? kTokenNames[t] : "invalid"; }

const char* letter_name(Letter l) {
  static const char* const names[] = {"A", "B", "C", "D", "E"};
  return names[int(l)];
}

const char* reason_name(Reason r) {
  switch (r) {
    case Reason::none:
      return "";
    case Reason::points25:
      return "25_points";
    case Reason::lead20:
      return "lead_20";
    case Reason::in_turn20:
      return "20_in_turn";
    case Reason::stalled:
      return "stalled";
    case Reason::resigned:
      return "resigned";
  }
  return "";
}

Json tokens_json(const Tokens& t) { return paddy_json(t); }

Json rice_json(const Rice& r) { return tree_of(write_rice, r); }

Json TanboGame::action_json(Action a) const { return action_tree(*this, a); }

// Members in key order (json_sink.hpp).
void TanboGame::write_action(Action a, JsonSink& out) const {
  const auto swap_side = [&](int paddy_at, int token_at) {
    out.begin_object();
    out.member("paddy", field(a, paddy_at, 4));
    out.member("token", token_name(Token(field(a, token_at, 4))));
    out.end_object();
  };
  const Kind kind = kind_of(a);
  if (kind == Kind::none || kind > Kind::trim) return out.null();  // no action
  out.begin_object();
  switch (kind) {
    case Kind::place_farmer:
      out.member("farmer", field(a, 0, 4));
      break;
    case Kind::sow:
      out.member("sow", token_name(Token(field(a, 0, 4))));
      break;
    case Kind::harvest:
      out.key("harvest");
      write_rice(out, rice_of(a));
      break;
    case Kind::rest:
      out.key("return");
      write_rice(out, rice_of(a));
      break;
    case Kind::swap:
      out.key("swap");
      out.begin_array();
      swap_side(0, 4);
      swap_side(8, 12);
      out.end_array();
      break;
    case Kind::trim: {
      const Tokens t = trim_of(a);
      out.key("trim");
      out.begin_object();
      out.member("black", t.n[Black]);
      out.member("paddy", field(a, 0, 4));
      out.member("red", t.n[Red]);
      out.member("snakes", t.n[Snake]);
      out.member("yellow", t.n[Yellow]);
      out.end_object();
      break;
    }
    case Kind::none:
      break;
  }
  out.end_object();
}

std::optional<Action> TanboGame::parse_action(const Json& j) const {
  if (!j.is_object() || j.size() != 1) return std::nullopt;
  const std::string& key = j.begin().key();
  const Json& v = j.begin().value();
  if (key == "farmer") {
    auto paddy = int_in(&v, 0, 15);
    return paddy ? std::optional(place_farmer_action(*paddy)) : std::nullopt;
  }
  if (key == "sow") {
    auto t = token_named(&v);
    return t ? std::optional(sow_action(*t)) : std::nullopt;
  }
  if (key == "harvest") return rice_named(Kind::harvest, &v);
  if (key == "return") return rice_named(Kind::rest, &v);
  if (key == "swap") {
    if (!v.is_array() || v.size() != 2) return std::nullopt;
    auto a = swap_side(v[0]), b = swap_side(v[1]);
    if (!a || !b) return std::nullopt;
    return swap_action(a->first, a->second, b->first, b->second);
  }
  if (key == "trim") {
    auto paddy = int_in(member(v, "paddy"), 0, 15), s = int_in(member(v, "snakes"), 0, 63),
         y = int_in(member(v, "yellow"), 0, 63), b = int_in(member(v, "black"), 0, 63),
         r = int_in(member(v, "red"), 0, 63);
    if (!paddy || !s || !y || !b || !r) return std::nullopt;
    return trim_action(*paddy, *s, *y, *b, *r);
  }
  return std::nullopt;
}

Json TanboGame::state_json() const { return state_tree(*this); }

// Members in key order (json_sink.hpp).
void TanboGame::write_state(JsonSink& out) const {
  const Pending p = pending();
  const bool over = s_.phase == Phase::over;
  out.begin_object();
  out.key("applied");
  out.begin_array();
  for (int l = 0; l < 5; ++l)
    if (s_.applied >> l & 1) out.string(letter_name(Letter(l)));
  out.end_array();
  out.key("bag");
  write_rice(out, s_.bag);
  out.member("cursor", s_.cursor);
  out.key("decision");
  if (over)
    out.null();
  else
    out.string(p.decision);
  out.member("first", s_.first);
  out.member("gained", s_.gained);
  out.key("hand");
  write_paddy(out, s_.hand);
  out.key("harvest");
  out.begin_array();
  write_rice(out, s_.harvest[0]);
  write_rice(out, s_.harvest[1]);
  out.end_array();
  out.member("in_replay", s_.in_replay);
  out.member("last", s_.last);
  out.member("mover", s_.mover);
  out.key("options");
  out.begin_object();
  out.member("farmer_counts_toward_limit", o_.farmer_counts_toward_limit);
  out.member("forbid_noop_swap", o_.forbid_noop_swap);
  out.member("replay_cascade", o_.replay_cascade);
  out.member("stall_rounds", o_.stall_rounds);
  out.end_object();
  out.member("pool", s_.pool);
  out.member("quiet_turns", s_.quiet_turns);
  out.member("replays", s_.replays);
  if (over) {
    out.key("result");
    out.begin_object();
    out.member("reason", reason_name(s_.reason));
    out.key("winner");
    if (s_.winner == kNoSeat)
      out.null();
    else
      out.value(s_.winner);
    out.end_object();
  }
  out.key("rings");
  out.begin_array();
  for (const Ring& ring : s_.ring) {
    out.begin_array();
    for (const Tokens& t : ring) write_paddy(out, t);
    out.end_array();
  }
  out.end_array();
  out.key("score");
  out.begin_array();
  out.value(s_.score(0));
  out.value(s_.score(1));
  out.end_array();
  write_seat(out, "seat", p.seat);
  out.member("stall_turns", 2 * o_.stall_rounds);
  out.member("status", to_string(status()));
  if (out.names() == Names::v1) {  // a count, under the name a seat has everywhere else now
    out.member("to_move", s_.to_move);
  } else {
    write_seat(out, "to_move", p.seat);
    out.member("tokens_to_move", s_.to_move);
  }
  out.member("trim_paddy", s_.trim_paddy);
  out.member("turn", s_.turn);
  out.end_object();
}

// Conservation (T1 component counts) and the bounds every phase relies on.
std::string TanboGame::invariant_violation() const {
  int snakes = s_.pool + s_.hand.n[Snake];
  Rice rice = s_.bag;
  for (int c = 0; c < kColours; ++c)
    rice.n[c] += s_.hand.n[colour_token(c)] + s_.harvest[0].n[c] + s_.harvest[1].n[c];
  for (Seat s = 0; s < kSeats; ++s) {
    int farmers = s == s_.mover ? s_.hand.n[Farmer] : 0;
    for (const Tokens& p : s_.ring[s]) {
      snakes += p.n[Snake];
      farmers += p.n[Farmer];
      for (int c = 0; c < kColours; ++c) rice.n[c] += p.n[colour_token(c)];
    }
    if (farmers > 1)
      return "ring " + std::to_string(s) + " has " + std::to_string(farmers) + " Farmers";
    if (farmers == 0 && s_.turn > 0)  // before the first turn a Farmer may still be unplaced
      return "ring " + std::to_string(s) + " has lost its Farmer";
  }
  if (snakes != kSnakes) return "snakes: " + std::to_string(snakes) + " instead of 20";
  for (int c = 0; c < kColours; ++c)
    if (rice.n[c] != kRice[c])
      return std::string(token_name(colour_token(c))) + " rice: " + std::to_string(rice.n[c]) +
             " instead of " + std::to_string(kRice[c]);
  if (s_.cursor >= kPaddies || s_.last >= kPaddies || s_.trim_paddy > kPaddies)
    return "cursor out of range";
  if (s_.replays > kMaxReplays) return "more than 64 replays";
  if (s_.phase == Phase::sow && s_.hand.empty()) return "sowing with an empty hand";
  if (s_.phase != Phase::sow && s_.phase != Phase::over && !s_.hand.empty())
    return "tokens left in hand outside movement";
  return {};
}

}  // namespace tanbo_server::engine::games::tanbo
