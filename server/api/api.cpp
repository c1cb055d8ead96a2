#include "server/api/api.hpp"

#include <charconv>

#include "engine/core/registry.hpp"

namespace tanbo::server::api {
namespace {

constexpr std::string_view kPrefix = "/api/";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '+' && plus_is_space) {
      out += ' ';
    } else if (c != '%') {
      out += c;
    } else {
      if (i + 2 >= s.size()) return std::nullopt;
      int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    }
  }
  return out;
}

Reply bad_param(std::string_view name, std::string_view expected, std::string_view got) {
  return error_reply(400, "bad_parameter",
                     std::string(name) + ": expected " + std::string(expected) + ", got '" +
                         std::string(got) + "'");
}

// The first value of `name`; a repeated parameter is not an error, only ignored.
const std::string* find(const Params& params, std::string_view name) {
  for (const auto& [k, v] : params)
    if (k == name) return &v;
  return nullptr;
}

std::optional<int> parse_limit(std::string_view s) {
  int v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || p != s.data() + s.size() || v < 1 || v > kListLimitMax)
    return std::nullopt;
  return v;
}

bool all_digits(std::string_view s) {
  if (s.empty() || s.size() > 18) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A page's `next` ("<finished_at>.<seq>") or a time in ms, as Store::list_games reads them.
bool is_cursor(std::string_view s) {
  auto dot = s.find('.');
  return all_digits(s.substr(0, dot)) &&
         (dot == std::string_view::npos || all_digits(s.substr(dot + 1)));
}

// One path segment after a prefix: non-empty, no further '/'.
std::optional<std::string> segment(std::string_view rest) {
  if (rest.empty() || rest.find('/') != std::string_view::npos) return std::nullopt;
  return percent_decode(rest, false);
}

Reply no_such_path(std::string_view path) {
  return error_reply(404, "not_found", "no such path: " + std::string(path));
}

std::variant<Query, Reply> parse_list(const Params& params) {
  ListGames q;
  if (const auto* v = find(params, "player")) {
    if (v->empty()) return bad_param("player", "an identity id", *v);
    q.player = *v;
  }
  if (const auto* v = find(params, "game")) {
    if (!engine::find_game(*v)) return bad_param("game", "a game id", *v);
    q.game = *v;
  }
  if (const auto* v = find(params, "limit")) {
    auto n = parse_limit(*v);
    if (!n) return bad_param("limit", "an integer 1-100", *v);
    q.limit = *n;
  }
  if (const auto* v = find(params, "before")) {
    if (!is_cursor(*v)) return bad_param("before", "a page's next cursor or a time in ms", *v);
    q.before = *v;
  }
  return q;
}

std::variant<Query, Reply> parse_leaderboard(const Params& params) {
  GetLeaderboard q;
  const auto* game = find(params, "game");
  if (!game) return error_reply(400, "bad_parameter", "game: required, a game id");
  if (!engine::find_game(*game)) return bad_param("game", "a game id", *game);
  q.game = *game;
  if (const auto* v = find(params, "limit")) {
    auto n = parse_limit(*v);
    if (!n) return bad_param("limit", "an integer 1-100", *v);
    q.limit = *n;
  }
  return q;
}

Reply answer_one(const GetGame& q, store::Store& store) {
  // R1: the store leaves out the seed of a game still playing.
  if (auto record = store.game_record(q.id)) return {200, std::move(*record)};
  return error_reply(404, "not_found", "no game " + q.id);
}

Reply answer_one(const ListGames& q, store::Store& store) {
  Json page = store.list_games(q.player, q.game, q.limit, q.before);
  if (auto e = page.find("error"); e != page.end())
    return error_reply(400, "bad_parameter", e->get<std::string>());
  return {200, std::move(page)};
}

Reply answer_one(const GetPlayer& q, store::Store& store) {
  if (auto player = store.player(q.id, kRecentGames)) return {200, std::move(*player)};
  return error_reply(404, "not_found", "no player " + q.id);
}

Reply answer_one(const GetLeaderboard& q, store::Store& store) {
  return {200, {{"game", q.game}, {"leaderboard", store.leaderboard(q.game, q.limit)}}};
}

}  // namespace

Reply error_reply(unsigned status, std::string_view code, std::string message) {
  return {status,
          {{"error", {{"code", code}, {"message", std::move(message)}}}, {"status", status}}};
}

bool is_api_path(std::string_view path) { return path.starts_with(kPrefix) || path == "/api"; }

std::optional<Params> decode_query(std::string_view target) {
  Params out;
  auto q = target.find('?');
  if (q == std::string_view::npos) return out;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (pair.empty()) continue;
    auto eq = pair.find('=');
    auto key = percent_decode(pair.substr(0, eq), true);
    auto value = percent_decode(
        eq == std::string_view::npos ? std::string_view{} : pair.substr(eq + 1), true);
    if (!key || !value) return std::nullopt;
    out.emplace_back(std::move(*key), std::move(*value));
  }
  return out;
}

std::variant<Query, Reply> parse(std::string_view method, std::string_view target) {
  std::string_view path = target.substr(0, target.find('?'));
  if (method != "GET" && method != "HEAD") return error_reply(405, "bad_method", "use GET or HEAD");
  auto params = decode_query(target);
  if (!params) return error_reply(400, "bad_parameter", "the query string is badly encoded");

  if (path == "/api/games") return parse_list(*params);
  if (path == "/api/leaderboard") return parse_leaderboard(*params);
  if (path.starts_with("/api/games/")) {
    auto id = segment(path.substr(11));
    if (!id) return no_such_path(path);
    return GetGame{std::move(*id)};
  }
  if (path.starts_with("/api/players/")) {
    auto id = segment(path.substr(13));
    if (!id) return no_such_path(path);
    return GetPlayer{std::move(*id)};
  }
  // GET /api/rooms, the live lobby, is the rooms' to answer (not the store's): serve() answers
  // it before it parses, so it never reaches here.
  return no_such_path(path);
}

Reply answer(const Query& query, store::Store& store) {
  return std::visit([&store](const auto& q) { return answer_one(q, store); }, query);
}

}  // namespace tanbo::server::api
