#pragma once
// What the store's files share: the checks a write makes before it touches a table, the paging
// cursor, and the statement caches' keys. Internal to server/store.
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "engine/core/rng.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::store::detail {

using Code = WriteResult::Code;

inline WriteResult refuse(Code code, std::string message) { return {code, std::move(message)}; }

inline std::string str(std::string_view s) { return std::string(s); }

inline long rounded(double rating) { return std::lround(rating); }

inline std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// R1: the commitment is checked against the seed when it is stored and when it is loaded.
inline std::optional<std::string> seed_problem(std::string_view seed_hex, std::string_view commit) {
  auto seed = engine::seed_from_hex(seed_hex);
  if (!seed) return "seed: expected 64 hexadecimal digits";
  if (engine::seed_commitment(*seed) != commit) return "commit: not the SHA-256 of the seed";
  return std::nullopt;
}

// {places: [players ints in 1..players], reason: string}, as engine::Result has it, and the
// room's `takeover` when some seat's last decision was the computer's for its absent player:
// distinct seats in increasing order, never empty (absent then).
inline std::optional<Json> checked_result(const Json& result, int players) {
  if (!result.is_object()) return std::nullopt;
  auto places = result.find("places");
  auto reason = result.find("reason");
  if (places == result.end() || !places->is_array() || places->size() != std::size_t(players) ||
      reason == result.end() || !reason->is_string())
    return std::nullopt;
  for (const Json& p : *places)
    if (!p.is_number_integer() || p.get<long long>() < 1 || p.get<long long>() > players)
      return std::nullopt;
  Json out{{"places", *places}, {"reason", *reason}};
  if (auto takeover = result.find("takeover"); takeover != result.end()) {
    if (!takeover->is_array() || takeover->empty()) return std::nullopt;
    long long last = -1;
    for (const Json& s : *takeover) {
      if (!s.is_number_integer() || s.get<long long>() <= last || s.get<long long>() >= players)
        return std::nullopt;
      last = s.get<long long>();
    }
    out["takeover"] = *takeover;
  }
  return out;
}

// Statements a database keeps prepared, by their text. The SQL written once is a fixed set of
// texts; past this many, one built with a value in it would only grow the cache.
inline constexpr std::size_t kMaxStatements = 256;

// Looks a statement up by its text without copying that text into a key.
struct TextHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept {
    return std::hash<std::string_view>{}(s);
  }
};

struct Cursor {
  std::int64_t finished_at = 0;
  std::optional<std::int64_t> seq;  // absent: every game finished at finished_at is excluded
};

inline bool parse_int(std::string_view s, std::int64_t& out) {
  if (s.empty() || s.size() > 18) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size() && out >= 0;
}

// "<finished_at>.<seq>" (a page's `next`) or "<finished_at>".
inline std::optional<Cursor> parse_cursor(std::string_view s) {
  Cursor c;
  auto dot = s.find('.');
  if (!parse_int(s.substr(0, dot), c.finished_at)) return std::nullopt;
  if (dot != std::string_view::npos) {
    std::int64_t seq = 0;
    if (!parse_int(s.substr(dot + 1), seq)) return std::nullopt;
    c.seq = seq;
  }
  return c;
}

// The current game of a room, as the writes check it.
struct Current {
  std::int64_t seq = 0;
  int game_no = 0;
  int players = 0;
  bool finished = false;
  bool ranked = false;
  std::string game;
};

inline WriteResult not_current(std::string_view room, int game_no, const Current& c) {
  return refuse(Code::invalid, "room " + str(room) + " plays game " + std::to_string(c.game_no) +
                                   ", not game " + std::to_string(game_no));
}

}  // namespace tanbo_server::server::store::detail
