#pragma once
// The HTTP API over the store: game records (R1, R2), the list of finished games, players and
// the leaderboard (M7). A request is parsed and judged on the network thread, so a bad one never
// queues; what passes becomes a Query, answered on the StoreWorker's thread, because a network
// thread never waits on the disk.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/core/game.hpp"
#include "server/store/store.hpp"

namespace tanbo::server::api {

using Json = engine::Json;

inline constexpr int kListLimitDefault = 20;
inline constexpr int kListLimitMax = 100;
inline constexpr int kRecentGames = 10;

// An HTTP status and the JSON body that goes with it.
struct Reply {
  unsigned status = 200;
  Json body;
};
// {"error": {code, message}, "status": status}, the shape of every refusal the server sends.
Reply error_reply(unsigned status, std::string_view code, std::string message);

// --- What a request asks of the store. ---
struct GetGame {
  std::string id;  // "<room>-<game_no>"
};
struct ListGames {
  std::optional<std::string> player, game, before;
  int limit = kListLimitDefault;
};
struct GetPlayer {
  std::string id;
};
struct GetLeaderboard {
  std::string game;
  int limit = kListLimitDefault;
};
using Query = std::variant<GetGame, ListGames, GetPlayer, GetLeaderboard>;

// True for the paths this module answers.
bool is_api_path(std::string_view path);

// A GET or HEAD of `target` (path and query string, percent-encoded) as a Query, or the reply
// refusing it: 400 naming the bad parameter, 404 for no such endpoint, 405 for another method.
std::variant<Query, Reply> parse(std::string_view method, std::string_view target);

// Runs on the StoreWorker's thread. 404 when the game or player is unknown. A StoreError (the
// database failed) escapes: the caller answers 503 and the worker reports itself unhealthy.
Reply answer(const Query& query, store::Store& store);

// The parameters of `target`'s query string, percent-decoded ('+' is a space), in order; nullopt
// when the encoding is bad.
using Params = std::vector<std::pair<std::string, std::string>>;
std::optional<Params> decode_query(std::string_view target);

}  // namespace tanbo::server::api
