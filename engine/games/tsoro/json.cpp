// The client's view: action and state JSON (docs/rules/tsoro.md).
#include "engine/core/json_object.hpp"
#include "engine/core/json_read.hpp"
#include "engine/core/json_sink.hpp"
#include "engine/games/tsoro/notation.hpp"
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo_server::engine::games::tsoro {

namespace {

constexpr const char* row_name(Hole h, int columns) {
  return is_inner(h, columns) ? "inner" : "outer";
}

constexpr const char* heads_name(Heads h) {
  return h == Heads::two ? "two" : h == Heads::one ? "one" : "none";
}

}  // namespace

Json hole_json(Hole h, int columns) {
  return object("row", row_name(h, columns), "col", column_of(h, columns));
}

Json across_json(Hole h, int columns) {
  return object("row", row_name(h, columns), "col", facing(column_of(h, columns), columns));
}

Json Tsoro::action_json(Action a) const { return action_tree(*this, a); }

void Tsoro::write_action(Action a, JsonSink& out) const {
  const Kind k = kind_of(a);
  if (k != Kind::sow && k != Kind::head && k != Kind::bonus) return out.null();  // no action
  out.begin_object();
  switch (k) {
    case Kind::sow:
      out.member("sow", hole_json(hole_of(a), rules_.columns));
      break;
    case Kind::head:
      out.member("head", a == kHeadRelay ? "relay" : "stop");
      break;
    case Kind::bonus:
      if (a == kBonusStop)
        out.member("bonus", "stop");
      else
        out.member("bonus", across_json(hole_of(a), rules_.columns));
      break;
  }
  out.end_object();
}

namespace {

// A hole named by row and column, as hole_json() names it (across: as across_json() does).
std::optional<Hole> hole_named(const Json& j, int columns, bool across) {
  auto row = string_of(member(j, "row"));
  auto col = int_in(member(j, "col"), 0, columns - 1);
  if (!row || !col || (*row != "inner" && *row != "outer")) return std::nullopt;
  const int c = across ? facing(*col, columns) : *col;
  return *row == "inner" ? inner_hole(c, columns) : outer_hole(c);
}

}  // namespace

std::optional<Action> Tsoro::parse_action(const Json& j) const {
  const int n = rules_.columns;
  if (const Json* sow = member(j, "sow")) {
    auto h = hole_named(*sow, n, false);
    return h ? std::optional(sow_action(*h)) : std::nullopt;
  }
  if (auto head = string_of(member(j, "head"))) return *head == "relay" ? kHeadRelay : kHeadStop;
  if (const Json* bonus = member(j, "bonus")) {
    if (bonus->is_string()) return kBonusStop;
    auto h = hole_named(*bonus, n, true);
    return h ? std::optional(bonus_action(*h)) : std::nullopt;
  }
  return std::nullopt;
}

Json Tsoro::state_json() const { return state_tree(*this); }

// Members in key order (json_sink.hpp).
void Tsoro::write_state(JsonSink& out) const {
  const int n = rules_.columns;
  const auto row = [&](std::string_view key, auto hole_at) {
    if (!key.empty()) out.key(key);
    out.begin_array();
    for (int c = 0; c < n; ++c) out.value(hole_at(c));
    out.end_array();
  };
  out.begin_object();
  if (phase_ == Phase::bonus) out.member("bonus_left", bonus_left_);
  out.member("columns", n);
  if (phase_ == Phase::head) out.member("head", hole_json(head_, n));
  out.key("head_cols");
  out.begin_array();
  for (int c = 0; c < n; ++c)
    if (contains(rules_.head_set(), outer_hole(c))) out.value(c);
  out.end_array();
  out.member("heads", heads_name(rules_.heads));
  out.member("occurrences", occurrences());
  constexpr const char* phases[] = {"sow", "head", "bonus", "over"};
  out.member("phase", phases[int(phase_)]);
  if (phase_ == Phase::head) out.member("relay", relay_ok_);
  // `rows`: the whole board as seat 0 sees it, top to bottom.
  out.key("rows");
  out.begin_array();
  row({}, [&](int c) { return board_[1][outer_hole(facing(c, n))]; });
  row({}, [&](int c) { return board_[1][inner_hole(facing(c, n), n)]; });
  row({}, [&](int c) { return board_[0][inner_hole(c, n)]; });
  row({}, [&](int c) { return board_[0][outer_hole(c)]; });
  out.end_array();
  // Each side from its owner's left.
  out.key("sides");
  out.begin_array();
  for (Seat s = 0; s < 2; ++s) {
    out.begin_object();
    out.member("captured", captured_[s]);
    row("inner", [&](int c) { return board_[s][inner_hole(c, n)]; });
    row("outer", [&](int c) { return board_[s][outer_hole(c)]; });
    out.end_object();
  }
  out.end_array();
  if (phase_ == Phase::sow) out.member("singletons", singletons_);
  out.key("to_move");
  if (phase_ == Phase::over)
    out.null();
  else
    out.value(mover_);
  out.member("turn", turn_);
  out.member("turns_without_capture", since_capture_);
  out.end_object();
}

}  // namespace tanbo_server::engine::games::tsoro
