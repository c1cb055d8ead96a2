#pragma once
// The board of Steere Tanbo (S1): W columns x H rows, orthogonal adjacency, kept in a padded array
// so that a neighbour step never leaves it. Point p = (y + 1) * stride + x, stride = W + 1, with x
// from the left and y from the top, both from 0; column W of every row and rows 0 and H + 1 are
// edge cells (column W doubles as the left edge of the next row). Algebraic names (S2): column
// letter from 'a', no letter skipped; row number counted from the bottom, from 1.
#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tanbo_server::engine::games::steere_tanbo {

using Point = std::uint16_t;
inline constexpr int kMaxSide = 19;
inline constexpr int kMaxCells = (kMaxSide + 2) * (kMaxSide + 1);  // 420
inline constexpr int kMaxPoints = kMaxSide * kMaxSide;

enum Color : std::uint8_t { black = 0, white = 1 };
inline constexpr int kColors = 2;
constexpr Color operator~(Color c) { return Color(c ^ 1); }
std::string_view color_name(Color c);  // "black", "white"

// What a cell holds; a stone's value is its Color.
enum Cell : std::uint8_t { kBlackStone = black, kWhiteStone = white, kEmpty = 2, kEdge = 3 };
constexpr Cell stone(Color c) { return Cell(c); }

struct Geometry {
  int width = 11, height = 11;

  constexpr int stride() const { return width + 1; }
  constexpr int cells() const { return (height + 2) * stride(); }
  constexpr Point at(int x, int y) const { return Point((y + 1) * stride() + x); }
  constexpr int x_of(Point p) const { return p % stride(); }
  constexpr int y_of(Point p) const { return p / stride() - 1; }
  constexpr bool on_board(int x, int y) const {
    return x >= 0 && x < width && y >= 0 && y < height;
  }
  // The four orthogonal steps.
  constexpr std::array<int, 4> steps() const { return {-stride(), -1, 1, stride()}; }

  std::string name(Point p) const;                       // "c5"
  std::optional<Point> parse(std::string_view s) const;  // inverse of name; nullopt if off board
  std::string size_name() const;                         // "11x11"
  static std::optional<Geometry> from_size_name(std::string_view s);

  friend constexpr bool operator==(Geometry, Geometry) = default;
};

// A set of points as a bitboard over the padded array; iteration is in point order.
struct PointSet {
  static constexpr int kWords = (kMaxCells + 63) / 64;
  std::array<std::uint64_t, kWords> bits{};

  void set(Point p) { bits[p >> 6] |= std::uint64_t(1) << (p & 63); }
  void reset(Point p) { bits[p >> 6] &= ~(std::uint64_t(1) << (p & 63)); }
  bool test(Point p) const { return bits[p >> 6] >> (p & 63) & 1; }
  int count() const {
    int n = 0;
    for (auto w : bits) n += std::popcount(w);
    return n;
  }
  bool empty() const {
    for (auto w : bits)
      if (w) return false;
    return true;
  }
  template <class F>
  void for_each(F&& f) const {
    for (int i = 0; i < kWords; ++i)
      for (std::uint64_t w = bits[i]; w; w &= w - 1) f(Point(i * 64 + std::countr_zero(w)));
  }
  friend bool operator==(const PointSet&, const PointSet&) = default;
};

}  // namespace tanbo_server::engine::games::steere_tanbo
