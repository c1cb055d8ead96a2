#include "engine/games/steere_tanbo/position.hpp"

#include <stdexcept>

namespace tanbo_server::engine::games::steere_tanbo {

namespace {

char stone_char(Cell c) { return c == kBlackStone ? 'b' : c == kWhiteStone ? 'w' : '.'; }

}  // namespace

Position Position::dense(Geometry g) {
  std::vector<std::string> rows(g.height, std::string(g.width, '.'));
  // S2: a checkerboard on the sub-lattice of even coordinates, from the top-left corner.
  for (int y = 0; y < g.height; y += 2)
    for (int x = 0; x < g.width; x += 2) rows[y][x] = (x / 2 + y / 2) % 2 ? 'w' : 'b';
  return from_rows(g, rows, black);
}

Position Position::classic() {
  const Geometry g{19, 19};
  std::vector<std::string> rows(g.height, std::string(g.width, '.'));
  // S2: the 1993 start, 16 stones on lines 1, 7, 13 and 19.
  for (int y = 0; y < g.height; y += 6)
    for (int x = 0; x < g.width; x += 6) rows[y][x] = (x / 6 + y / 6) % 2 ? 'w' : 'b';
  return from_rows(g, rows, black);
}

Position Position::from_rows(Geometry g, const std::vector<std::string>& rows, Color to_move) {
  if (g.width < 1 || g.height < 1 || g.width > kMaxSide || g.height > kMaxSide)
    throw std::invalid_argument("board sides are 1 to " + std::to_string(kMaxSide));
  if (int(rows.size()) != g.height)
    throw std::invalid_argument("expected " + std::to_string(g.height) + " rows, got " +
                                std::to_string(rows.size()));
  Position pos;
  pos.geo_ = g;
  pos.to_move_ = to_move;
  pos.cell_.fill(kEdge);
  for (int y = 0; y < g.height; ++y) {
    if (int(rows[y].size()) != g.width)
      throw std::invalid_argument("row " + std::to_string(g.height - y) + " must have " +
                                  std::to_string(g.width) + " points");
    for (int x = 0; x < g.width; ++x) {
      const char ch = rows[y][x];
      if (ch != '.' && ch != 'b' && ch != 'w')
        throw std::invalid_argument("row " + std::to_string(g.height - y) +
                                    ": points are '.', 'b' or 'w'");
      pos.cell_[g.at(x, y)] = ch == 'b' ? kBlackStone : ch == 'w' ? kWhiteStone : kEmpty;
    }
  }

  // Each monochrome group is one root: placements touch exactly one own stone (S3), so roots
  // never merge, and a group is never two roots.
  const auto steps = g.steps();
  std::vector<bool> seen(kMaxCells, false);
  std::vector<Point> stack;
  for (int p = 0; p < g.cells(); ++p) {
    if (pos.cell_[p] > kWhiteStone || seen[p]) continue;
    const Color c = Color(pos.cell_[p]);
    const RootId r = RootId(pos.root_count_++);
    Root& root = pos.roots_[r];
    root.color = c;
    root.head = Point(p);
    pos.next_[p] = Point(p);
    ++pos.roots_alive_[c];
    seen[p] = true;
    stack.assign(1, Point(p));
    while (!stack.empty()) {
      const Point s = stack.back();
      stack.pop_back();
      pos.root_[s] = r;
      ++root.stones;
      ++pos.stones_[c];
      if (s != root.head) pos.next_[s] = pos.next_[root.head], pos.next_[root.head] = s;
      for (int d : steps)
        if (pos.cell_[s + d] == stone(c) && !seen[s + d])
          seen[s + d] = true, stack.push_back(Point(s + d));
    }
  }
  for (int p = 0; p < g.cells(); ++p)
    if (pos.cell_[p] <= kWhiteStone)
      for (int d : steps) ++pos.friends_[pos.cell_[p]][p + d];
  for (int p = 0; p < g.cells(); ++p)
    if (pos.cell_[p] == kEmpty)
      for (Color c : {black, white})
        if (pos.friends_[c][p] == 1) pos.add_liberty(c, Point(p), pos.owner(c, Point(p)));

  // S5: a position with a colour gone is a finished game, not a start.
  for (Color c : {black, white})
    if (!pos.stones_[c]) throw std::invalid_argument(std::string(color_name(c)) + " has no stones");
  // S4: no bounded root survives a turn.
  for (int r = 0; r < pos.root_count_; ++r)
    if (!pos.roots_[r].liberties)
      throw std::invalid_argument("the root at " + g.name(pos.roots_[r].head) + " is bounded");
  return pos;
}

RootId Position::owner(Color c, Point p) const {
  for (int d : geo_.steps())
    if (cell_[p + d] == stone(c)) return root_[p + d];
  return 0;  // unreachable: called only for points with a c-coloured neighbour
}

void Position::add_liberty(Color c, Point p, RootId r) {
  liberty_[c].set(p);
  ++roots_[r].liberties;
}

void Position::drop_liberty(Color c, Point p, RootId r) {
  liberty_[c].reset(p);
  --roots_[r].liberties;
}

Turn Position::place(Point p) {
  const Color c = to_move_, o = ~c;
  Turn turn;
  const RootId r = turn.current = owner(c, p);  // S3: p has exactly one c-coloured neighbour

  // Roots that may lose their last liberty: only they can become bounded by this placement.
  std::array<RootId, Turn::kMaxRemoved> touched;
  int n_touched = 0;
  auto touch = [&](RootId x) {
    for (int i = 0; i < n_touched; ++i)
      if (touched[i] == x) return;
    touched[n_touched++] = x;
  };

  // p stops being a liberty of r, and of the opponent's root next to it, if any.
  drop_liberty(c, p, r);
  if (friends_[o][p] == 1) {
    const RootId x = owner(o, p);
    drop_liberty(o, p, x);
    touch(x);
  }
  for (int d : geo_.steps()) {
    const Point q = Point(p + d);
    const int before = friends_[c][q]++;
    if (cell_[q] != kEmpty) continue;
    if (before == 0) {
      add_liberty(c, q, r);  // q's only c neighbour is the new stone
    } else if (before == 1) {
      const RootId x = owner(c, q);  // p is still empty here: this is q's old neighbour
      drop_liberty(c, q, x);
      touch(x);
    }
  }
  cell_[p] = stone(c);
  root_[p] = r;
  next_[p] = next_[roots_[r].head];
  next_[roots_[r].head] = p;
  ++roots_[r].stones;
  ++stones_[c];

  if (roots_[r].liberties == 0) {
    // S4: the current root is bounded: it goes alone, whatever else is bounded.
    turn.current_bounded = true;
    turn.removed[turn.removed_count++] = r;
  } else {
    // S4: otherwise every bounded root of either colour, all decided before any goes.
    for (int i = 0; i < n_touched; ++i)
      if (roots_[touched[i]].liberties == 0) turn.removed[turn.removed_count++] = touched[i];
  }
  for (int i = 0; i < turn.removed_count; ++i) remove_root(turn.removed[i]);

  to_move_ = o;
  ++ply_;
  return turn;
}

void Position::lift_stone(Color c, Point s) {
  const Color o = ~c;
  cell_[s] = kEmpty;
  --roots_[root_[s]].stones;
  --stones_[c];
  for (int d : geo_.steps()) {
    const Point q = Point(s + d);
    const int before = friends_[c][q]--;
    if (cell_[q] != kEmpty) continue;
    if (before == 2)
      add_liberty(c, q, owner(c, q));  // q's other c neighbour is now its only one
    else if (before == 1)
      drop_liberty(c, q, root_[s]);
  }
  if (friends_[c][s] == 1) add_liberty(c, s, owner(c, s));
  if (friends_[o][s] == 1) add_liberty(o, s, owner(o, s));
}

void Position::remove_root(RootId r) {
  // Lifting a stone never takes a liberty from another root (an empty point only loses its
  // c-liberty status when its last c neighbour goes, and that neighbour was this root's), so
  // removals cannot cascade.
  const Color c = roots_[r].color;
  for_each_stone(r, [&](Point s) { lift_stone(c, s); });
  --roots_alive_[c];
}

std::vector<std::string> Position::rows() const {
  std::vector<std::string> out(geo_.height, std::string(geo_.width, '.'));
  for (int y = 0; y < geo_.height; ++y)
    for (int x = 0; x < geo_.width; ++x) out[y][x] = stone_char(cell_[geo_.at(x, y)]);
  return out;
}

std::string Position::invariant_violation() const {
  const Geometry& g = geo_;
  std::array<int, kColors> stones{};
  std::vector<int> root_stones(root_count_, 0), root_libs(root_count_, 0);
  std::array<PointSet, kColors> libs{};
  for (int y = 0; y < g.height; ++y) {
    for (int x = 0; x < g.width; ++x) {
      const Point p = g.at(x, y);
      std::array<int, kColors> f{};
      for (int d : g.steps())
        if (cell_[p + d] <= kWhiteStone) ++f[cell_[p + d]];
      for (Color c : {black, white})
        if (f[c] != friends_[c][p]) return "friend count of " + g.name(p) + " is off";
      if (cell_[p] == kEmpty) {
        for (Color c : {black, white}) {
          if (f[c] != 1) continue;
          libs[c].set(p);
          ++root_libs[owner(c, p)];
        }
        continue;
      }
      if (cell_[p] > kWhiteStone) return g.name(p) + " is an edge cell";
      const Color c = Color(cell_[p]);
      ++stones[c];
      if (root_[p] >= root_count_ || roots_[root_[p]].color != c)
        return "stone at " + g.name(p) + " has a bad root";
      ++root_stones[root_[p]];
      for (int d : g.steps())
        if (cell_[p + d] == stone(c) && root_[p + d] != root_[p])
          return "roots merged at " + g.name(p);  // S3: roots never merge
    }
  }
  if (stones != stones_) return "stone counts are off";
  if (libs != liberty_) return "liberty sets are off";
  std::array<int, kColors> alive{};
  for (int r = 0; r < root_count_; ++r) {
    const Root& root = roots_[r];
    if (root.stones != root_stones[r]) return "root " + std::to_string(r) + " stone count is off";
    if (root.liberties != root_libs[r]) return "root " + std::to_string(r) + " liberties are off";
    if (!root.stones) continue;
    ++alive[root.color];
    if (!root.liberties) return "root " + std::to_string(r) + " is bounded";  // S4
    // Walked by hand, with a bound, so that a broken list is reported rather than looped on.
    int listed = 0;
    Point s = root.head;
    do {
      if (cell_[s] != stone(root.color) || root_[s] != r || ++listed > root.stones) break;
      s = next_[s];
    } while (s != root.head);
    if (listed != root.stones || s != root.head)
      return "root " + std::to_string(r) + " stone list is off";
  }
  if (alive != roots_alive_) return "live root counts are off";
  return {};
}

}  // namespace tanbo_server::engine::games::steere_tanbo
