#include "engine/games/steere_tanbo/game.hpp"

#include <algorithm>
#include <stdexcept>

#include "engine/core/events.hpp"
#include "engine/core/json_object.hpp"
#include "engine/core/json_read.hpp"
#include "engine/core/json_sink.hpp"

namespace tanbo_server::engine::games::steere_tanbo {

namespace {

Color color_of(std::string_view name) { return name == "white" ? white : black; }

// A custom set-up: {"board": [rows top first, '.' 'b' 'w'], "colour_to_move": "black" | "white"}.
Position custom_start(Geometry g, const Json& setup) {
  if (!setup.is_object() || !setup.contains("board") || !setup.at("board").is_array())
    throw BadSetup{"setup",
                   "expected {\"board\": [rows], \"colour_to_move\": \"black\"|\"white\"}"};
  std::vector<std::string> rows;
  for (const Json& row : setup.at("board")) {
    if (!row.is_string()) throw BadSetup{"setup", "board rows are strings"};
    rows.push_back(row.get<std::string>());
  }
  // The colour to move: colour_to_move, or to_move, the name protocol version 1 gave it.
  const char* key = setup.contains("colour_to_move") ? "colour_to_move" : "to_move";
  Color to_move = black;
  if (setup.contains(key)) {
    const Json& t = setup.at(key);
    if (t != "black" && t != "white")
      throw BadSetup{"setup", std::string(key) + " is \"black\" or \"white\""};
    to_move = color_of(t.get<std::string>());
  }
  try {
    return Position::from_rows(g, rows, to_move);
  } catch (const std::invalid_argument& e) {
    throw BadSetup{"setup", e.what()};
  }
}

std::unique_ptr<Game> create(const CreateArgs& args) {
  const std::string size = args.options.at("size").get<std::string>();
  const std::string start = args.options.at("start").get<std::string>();
  const Geometry g = *Geometry::from_size_name(size);  // the option's choices all parse
  if (!args.setup.is_null())
    return std::make_unique<SteereTanbo>(custom_start(g, args.setup), args.first);
  if (start == "classic") {
    // S2: the 1993 start exists on 19x19 only.
    if (size != "19x19") throw BadSetup{"start", "the classic start is played on 19x19 only"};
    return std::make_unique<SteereTanbo>(Position::classic(), args.first);
  }
  return std::make_unique<SteereTanbo>(Position::dense(g), args.first);
}

}  // namespace

const GameInfo& info() {
  static const GameInfo game{
      "steere-tanbo",
      "Tanbo (Mark Steere, 2026)",
      "Grow your roots one stone at a time; a root with no room to grow is removed. "
      "Annihilate the other colour.",
      2,
      2,
      2,
      {
          // S1
          {"size",
           OptionSpec::Kind::choice,
           "11x11",
           {"7x7", "11x11", "15x15", "19x19", "5x7", "7x9", "9x11", "11x13", "13x15"},
           0,
           0,
           "board, W columns x H rows"},
          // S2
          {"start",
           OptionSpec::Kind::choice,
           "dense",
           {"dense", "classic"},
           0,
           0,
           "dense: the 2026 start; classic: the 1993 start (19x19 only)"},
      },
      create,
      {evaluate, reset_as<SteereTanbo>, 16},
      true};
  return game;
}

SteereTanbo::SteereTanbo(const Position& start, Seat first)
    : pos_(start), seat_of_{first, 1 - first} {}

void SteereTanbo::legal_actions(ActionList& out) const {
  out.clear();
  if (status_ == Status::finished) return;
  // S3: next to exactly one stone of your colour; opponent neighbours do not matter.
  pos_.moves(pos_.to_move()).for_each([&](Point p) { out.push_back(Action{p}); });
}

void SteereTanbo::apply(Action a, Rng&, Events* events) {
  const Color c = pos_.to_move();
  const Point p = Point(a.code);
  const Turn turn = pos_.place(p);
  if (pos_.over()) {
    // S5: on either player's turn, the mover's own last root included.
    status_ = Status::finished;
    winner_ = pos_.winner();
  } else if (pos_.moves(pos_.to_move()).empty()) {
    throw std::logic_error("steere-tanbo: no legal move while both colours stand (S5)");
  }
  if (!events) return;

  const Geometry& g = pos_.geometry();
  events->add("place", "seat", seat_of_[c], "colour", color_name(c), "point", g.name(p), "root",
              turn.current);
  if (turn.removed_count) {
    Json roots = Json::array();
    for (int i = 0; i < turn.removed_count; ++i) {
      const RootId r = turn.removed[i];
      std::vector<Point> points;
      pos_.for_each_stone(r, [&](Point s) { points.push_back(s); });
      std::sort(points.begin(), points.end());
      Json names = Json::array();
      for (Point s : points) names.push_back(g.name(s));
      roots.push_back(
          object("id", r, "colour", color_name(pos_.root(r).color), "points", std::move(names)));
    }
    events->add("remove", "rule", turn.current_bounded ? "current_root_bounded" : "roots_bounded",
                "roots", std::move(roots));
  }
  if (status_ == Status::finished)
    events->add("win", "seat", seat_of_[winner_], "colour", color_name(winner_));
}

void SteereTanbo::resign(Seat seat, Events* events) {
  // R3
  status_ = Status::finished;
  resigned_ = true;
  winner_ = seat_of_[black] == seat ? white : black;
  if (events) events->add("win", "seat", seat_of_[winner_], "colour", color_name(winner_));
}

Result SteereTanbo::result() const {
  Result r{{2, 2}, resigned_ ? "resigned" : "annihilation"};
  r.places[seat_of_[winner_]] = 1;
  return r;
}

Json SteereTanbo::action_json(Action a) const { return action_tree(*this, a); }

void SteereTanbo::write_action(Action a, JsonSink& out) const {
  out.begin_object();
  out.member("place", pos_.geometry().name(Point(a.code)));
  out.end_object();
}

std::optional<Action> SteereTanbo::parse_action(const Json& j) const {
  auto name = string_of(member(j, "place"));
  auto p = name ? pos_.geometry().parse(*name) : std::nullopt;
  return p ? std::optional(Action{*p}) : std::nullopt;
}

Json SteereTanbo::state_json() const { return state_tree(*this); }

// Members in key order (json_sink.hpp).
void SteereTanbo::write_state(JsonSink& out) const {
  const Geometry& g = pos_.geometry();
  const auto by_colour = [&](std::string_view key, auto of) {
    out.key(key);
    out.begin_object();
    out.member("black", of(black));
    out.member("white", of(white));
    out.end_object();
  };
  out.begin_object();
  out.key("board");
  out.begin_array();
  for (const std::string& row : pos_.rows()) out.string(row);
  out.end_array();
  const bool playing = status_ != Status::finished;
  if (out.names() != Names::v1 && playing) out.member("colour_to_move", color_name(pos_.to_move()));
  out.member("height", g.height);
  out.member("ply", pos_.ply());
  // Each root that holds stones, with its stones in board order.
  std::vector<std::vector<Point>> stones(pos_.root_count());
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      if (pos_.at(g.at(x, y)) <= kWhiteStone)
        stones[pos_.root_of(g.at(x, y))].push_back(g.at(x, y));
  out.key("roots");
  out.begin_array();
  for (int r = 0; r < pos_.root_count(); ++r) {
    if (stones[r].empty()) continue;
    out.begin_object();
    out.member("colour", color_name(pos_.root(RootId(r)).color));
    out.member("id", r);
    out.member("liberties", pos_.root(RootId(r)).liberties);
    out.key("stones");
    out.begin_array();
    for (Point p : stones[r]) out.string(g.name(p));
    out.end_array();
    out.end_object();
  }
  out.end_array();
  by_colour("seats", [&](Color c) { return seat_of_[c]; });
  out.member("size", g.size_name());
  by_colour("stones", [&](Color c) { return pos_.stones(c); });
  if (out.names() == Names::v1) {  // the colour, under the name a seat has everywhere else now
    if (playing) out.member("to_move", color_name(pos_.to_move()));
  } else {
    out.key("to_move");
    if (playing)
      out.value(seat_of_[pos_.to_move()]);
    else
      out.null();
  }
  out.member("width", g.width);
  if (!playing) out.member("winner", color_name(winner_));
  out.end_object();
}

std::string SteereTanbo::invariant_violation() const {
  std::string v = pos_.invariant_violation();
  if (v.empty() && status_ != Status::finished &&
      (pos_.over() || pos_.moves(pos_.to_move()).empty()))
    v = "the game goes on with a colour gone or no legal move (S5)";
  return v;
}

}  // namespace tanbo_server::engine::games::steere_tanbo
