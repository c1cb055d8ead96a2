#include "engine/games/steere_tanbo/board.hpp"

#include <charconv>

namespace tanbo_server::engine::games::steere_tanbo {

std::string_view color_name(Color c) { return c == black ? "black" : "white"; }

std::string Geometry::name(Point p) const {
  // S2: row numbers count from the bottom.
  return char('a' + x_of(p)) + std::to_string(height - y_of(p));
}

std::optional<Point> Geometry::parse(std::string_view s) const {
  if (s.size() < 2 || s[0] < 'a' || s[0] > 'z' || s[1] == '0') return std::nullopt;
  int row = 0;
  auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), row);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  const int x = s[0] - 'a', y = height - row;
  if (!on_board(x, y)) return std::nullopt;
  return at(x, y);
}

std::string Geometry::size_name() const {
  return std::to_string(width) + "x" + std::to_string(height);
}

std::optional<Geometry> Geometry::from_size_name(std::string_view s) {
  int w = 0, h = 0;
  const char* const last = s.data() + s.size();
  auto [x, ec1] = std::from_chars(s.data(), last, w);
  if (ec1 != std::errc{} || x == last || *x != 'x') return std::nullopt;
  auto [end, ec2] = std::from_chars(x + 1, last, h);
  if (ec2 != std::errc{} || end != last) return std::nullopt;
  if (w < 1 || h < 1 || w > kMaxSide || h > kMaxSide) return std::nullopt;
  return Geometry{w, h};
}

}  // namespace tanbo_server::engine::games::steere_tanbo
