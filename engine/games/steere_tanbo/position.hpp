#pragma once
// A Steere Tanbo position and its rules (S2-S5), kept incrementally so that a turn costs a few
// neighbour visits, never a board scan:
//   friends_[c][p]  how many c-coloured stones touch point p;
//   root_[p]        the root of the stone on p (roots never merge and are never created, so a
//                   root is exactly a monochrome connected group and ids are fixed at set-up);
//   liberty_[c]     the empty points with exactly one c-coloured neighbour (S4). Each belongs to
//                   exactly one c root, the one of that neighbour, and they are c's legal moves
//                   (S3); each root counts its own in Root::liberties.
// Every change goes through place() and lift_stone(), which keep the three in step.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/games/steere_tanbo/board.hpp"

namespace tanbo_server::engine::games::steere_tanbo {

using RootId = std::uint16_t;

struct Root {
  std::uint16_t stones = 0;     // 0 once removed
  std::uint16_t liberties = 0;  // S4: bounded when 0
  Point head = 0;               // a stone of the root: entry into its circular stone list
  Color color = black;
  friend bool operator==(const Root&, const Root&) = default;
};

// What a placement did: the root it enlarged and the roots it removed (S4).
struct Turn {
  // Besides the current root, at most 4 roots lose a liberty: the opponent's at the placed point
  // and one per other neighbour.
  static constexpr int kMaxRemoved = 8;
  RootId current = 0;
  bool current_bounded = false;  // S4: then `removed` is the current root alone
  int removed_count = 0;
  std::array<RootId, kMaxRemoved> removed{};
};

class Position {
 public:
  // S2: the 2026 start (a stone where both coordinates are even, Black where x/2 + y/2 is even).
  static Position dense(Geometry g);
  // S2: the 1993 start on 19x19 (lines 1, 7, 13, 19; Black where x/6 + y/6 is even).
  static Position classic();
  // Any position from rows top first, '.' empty, 'b' Black, 'w' White; every monochrome group is
  // a root. Throws std::invalid_argument naming what is wrong: a bad size or character, a colour
  // without stones, a bounded root (S4: none survives a turn).
  static Position from_rows(Geometry g, const std::vector<std::string>& rows, Color to_move);

  // S3: precondition legal(p). Places a stone of to_move() on p, removes what S4 says, and passes
  // the turn.
  Turn place(Point p);

  bool legal(Point p) const { return liberty_[to_move_].test(p); }
  // S3: the legal moves of colour c.
  const PointSet& moves(Color c) const { return liberty_[c]; }
  // S5: the colour that has annihilated the other, once one has no stones.
  bool over() const { return stones_[black] == 0 || stones_[white] == 0; }
  Color winner() const { return stones_[black] == 0 ? white : black; }

  const Geometry& geometry() const { return geo_; }
  Color to_move() const { return to_move_; }
  int ply() const { return ply_; }
  Cell at(Point p) const { return cell_[p]; }
  RootId root_of(Point p) const { return root_[p]; }
  int friends(Color c, Point p) const { return friends_[c][p]; }
  const Root& root(RootId r) const { return roots_[r]; }
  int root_count() const { return root_count_; }  // ids 0 .. root_count() - 1, removed ones too
  int roots_alive(Color c) const { return roots_alive_[c]; }
  int stones(Color c) const { return stones_[c]; }

  // f(point) for every stone of root r; also valid for a root removed by the last place(), until
  // the next one (its stone list is left in place).
  template <class F>
  void for_each_stone(RootId r, F&& f) const {
    const Point head = roots_[r].head;
    Point s = head;
    do f(s), s = next_[s];
    while (s != head);
  }

  std::vector<std::string> rows() const;  // as from_rows reads them
  // Recomputes every counter from the board; empty when all agree and no root is bounded.
  std::string invariant_violation() const;

  friend bool operator==(const Position&, const Position&) = default;

 private:
  RootId owner(Color c, Point p) const;  // the root of p's one c-coloured neighbour
  void add_liberty(Color c, Point p, RootId r);
  void drop_liberty(Color c, Point p, RootId r);
  void lift_stone(Color c, Point p);
  void remove_root(RootId r);

  Geometry geo_;
  std::array<Cell, kMaxCells> cell_{};
  std::array<RootId, kMaxCells> root_{};
  std::array<Point, kMaxCells> next_{};  // circular list of a root's stones
  std::array<std::array<std::uint8_t, kMaxCells>, kColors> friends_{};
  std::array<PointSet, kColors> liberty_{};
  std::array<Root, kMaxPoints> roots_{};
  std::array<int, kColors> stones_{};
  std::array<int, kColors> roots_alive_{};
  int root_count_ = 0;
  int ply_ = 0;
  Color to_move_ = black;
};

}  // namespace tanbo_server::engine::games::steere_tanbo
