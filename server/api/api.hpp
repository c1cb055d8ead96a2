#pragma once
// The HTTP API over the store: game records (R1, R2), the list of finished games, players and
// the leaderboard (M7). A request is parsed and judged on the network thread, so a bad one never
// queues; what passes becomes a Query, answered on the StoreWorker's thread, because a network
// thread never waits on the disk.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/core/game.hpp"
#include "engine/core/match.hpp"
#include "server/store/store.hpp"

namespace tanbo_server::server::api {

using Json = engine::Json;

inline constexpr int kListLimitDefault = 20;
inline constexpr int kListLimitMax = 100;
inline constexpr int kRecentGames = 10;
// GET /api/games/{id}/steps answers records of at most this many actions (every game ends far
// sooner: docs/protocol.md, HTTP API); a step's state is a few hundred bytes to 2 KiB of JSON.
inline constexpr std::size_t kStepsMax = 2000;

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
// The public state after each step of a finished game, replayed through the engine (R2).
struct GetSteps {
  std::string id;
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
using Query = std::variant<GetGame, GetSteps, ListGames, GetPlayer, GetLeaderboard>;

// True for the paths this module answers.
bool is_api_path(std::string_view path);

// A GET or HEAD of `target` (path and query string, percent-encoded) as a Query, or the reply
// refusing it: 400 naming the bad parameter, 404 for no such endpoint, 405 for another method.
std::variant<Query, Reply> parse(std::string_view method, std::string_view target);

// Runs on the StoreWorker's thread. 404 when the game or player is unknown. A StoreError (the
// database failed) escapes: the caller answers 503 and the worker reports itself unhealthy.
// GetSteps answers only the finished record (409 while playing, R1; 413 beyond kStepsMax): the
// replay is StepsReplay's, a slice per store job.
Reply answer(const Query& query, store::Store& store);

// The second half of GetSteps: a finished record as the store gives it, replayed through the
// engine a slice at a time (serve() runs each slice as its own store job, so a room's append never
// waits behind a whole game). The answer: the record less its `actions`, plus
// steps: [{step, seat, action, status, state, pending, events, result?}], step 0 the start (seat
// and action null). A step is the room's `state` message (protocol::state) less the members that
// belong to the room rather than the step. A record the engine refuses, or whose replayed end
// differs from its recorded result, is a 500 `replay_failed` (logged), never a throw.
class StepsReplay {
 public:
  explicit StepsReplay(Json record);  // step 0
  // Replays up to `actions` more; true once the answer is ready (the end, or a failure).
  bool advance(std::size_t actions);
  // The answer; call once, after advance() returned true.
  Reply reply();

 private:
  void fail(std::string why);
  bool finish();
  void push_step(const engine::RecordedAction* by);

  Json record_;
  std::string id_ = "?";
  std::optional<engine::Record> head_;
  std::unique_ptr<engine::Match> match_;
  Json steps_ = Json::array();
  std::size_t next_ = 0;  // the next action of head_ to replay
  std::optional<Reply> failed_;
};

// The whole replay at once (tests, tools): StepsReplay run to its end.
Reply steps(Json record);

// The parameters of `target`'s query string, percent-decoded ('+' is a space), in order; nullopt
// when the encoding is bad.
using Params = std::vector<std::pair<std::string, std::string>>;
std::optional<Params> decode_query(std::string_view target);

}  // namespace tanbo_server::server::api
