// The client's view: action and state JSON (docs/rules/tsoro.md).
#include "engine/core/json_object.hpp"
#include "engine/core/json_read.hpp"
#include "engine/games/tsoro/notation.hpp"
#include "engine/games/tsoro/tsoro.hpp"

namespace tanbo::engine::tsoro {

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

Json Tsoro::action_json(Action a) const {
  switch (kind_of(a)) {
    case Kind::sow:
      return object("sow", hole_json(hole_of(a), rules_.columns));
    case Kind::head:
      return object("head", a == kHeadRelay ? "relay" : "stop");
    case Kind::bonus:
      if (a == kBonusStop) return object("bonus", "stop");
      return object("bonus", across_json(hole_of(a), rules_.columns));
  }
  return nullptr;
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

Json Tsoro::state_json() const {
  const int n = rules_.columns;
  // Each side from its owner's left; `rows` the whole board as seat 0 sees it, top to bottom.
  Json sides = Json::array();
  for (Seat s = 0; s < 2; ++s) {
    Json outer = Json::array(), inner = Json::array();
    for (int c = 0; c < n; ++c) {
      outer.push_back(board_[s][outer_hole(c)]);
      inner.push_back(board_[s][inner_hole(c, n)]);
    }
    sides.push_back(
        object("outer", std::move(outer), "inner", std::move(inner), "captured", captured_[s]));
  }
  Json rows = Json::array({Json::array(), Json::array(), Json::array(), Json::array()});
  for (int c = 0; c < n; ++c) {
    const int c1 = facing(c, n);
    rows[0].push_back(board_[1][outer_hole(c1)]);
    rows[1].push_back(board_[1][inner_hole(c1, n)]);
    rows[2].push_back(board_[0][inner_hole(c, n)]);
    rows[3].push_back(board_[0][outer_hole(c)]);
  }
  Json head_cols = Json::array();
  for (int c = 0; c < n; ++c)
    if (contains(rules_.head_set(), outer_hole(c))) head_cols.push_back(c);
  constexpr const char* phases[] = {"sow", "head", "bonus", "over"};
  Json j =
      object("columns", n, "heads", heads_name(rules_.heads), "head_cols", std::move(head_cols),
             "sides", std::move(sides), "rows", std::move(rows), "to_move",
             phase_ == Phase::over ? Json(nullptr) : Json(mover_), "phase", phases[int(phase_)],
             "turn", turn_, "turns_without_capture", since_capture_, "occurrences", occurrences());
  if (phase_ == Phase::sow) j["singletons"] = singletons_;
  if (phase_ == Phase::head) j["head"] = hole_json(head_, n), j["relay"] = relay_ok_;
  if (phase_ == Phase::bonus) j["bonus_left"] = bonus_left_;
  return j;
}

}  // namespace tanbo::engine::tsoro
