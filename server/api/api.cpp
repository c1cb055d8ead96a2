#include "server/api/api.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <exception>

#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "protocol/server.hpp"

namespace tanbo_server::server::api {
namespace {

constexpr std::string_view kApiPrefix = "/api/";

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
  auto record = store.game_record(q.id);
  if (!record) return error_reply(404, "not_found", "no game " + q.id);
  // A finished game's record carries its players' channel; the spectators' is the operators'.
  if ((*record)["status"] == "finished") {
    const std::string room = (*record)["room"];
    Json chat = Json::array();
    for (const auto& line : store.game_chat(room, (*record)["game_no"].get<int>(), "players"))
      chat.push_back(protocol::said({room,
                                     protocol::Channel::players,
                                     line.n,
                                     {line.identity, line.name},
                                     line.text,
                                     line.phrase,
                                     line.at}));
    (*record)["chat"] = std::move(chat);
  }
  return {200, std::move(*record)};
}

Reply answer_one(const GetSteps& q, store::Store& store) {
  auto record = store.game_record(q.id);
  if (!record) return error_reply(404, "not_found", "no game " + q.id);
  // R1: a game still playing keeps its seed secret, so its states are the room's to show.
  if ((*record)["status"] != "finished")
    return error_reply(
        409, "not_finished",
        "game " + q.id + " is still being played: its steps are public once it ends");
  if (std::size_t n = (*record)["actions"].size(); n > kStepsMax)
    return error_reply(413, "too_large",
                       "game " + q.id + " has " + std::to_string(n) +
                           " actions; steps are served "
                           "for at most " +
                           std::to_string(kStepsMax));
  return {200, std::move(*record)};
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

// One step as the room's `state` message shows it (protocol::state_text, the room's own writer,
// parsed), less the members that belong to the room or to the whole game: those are the
// answer's, once.
Json step_json(const engine::Match& m, std::string_view game, std::size_t step,
               const engine::RecordedAction* by) {
  const engine::Game& g = m.game();
  const bool finished = g.status() == engine::Status::finished;
  engine::Pending pending;
  std::optional<engine::Result> result;
  if (finished)
    result = m.result();
  else
    pending = g.pending();
  protocol::StateView v;
  v.game = game;
  v.status = finished ? protocol::RoomStatus::finished : protocol::RoomStatus::playing;
  v.pending = finished ? nullptr : &pending;
  v.result = result ? &*result : nullptr;
  const std::string state = engine::state_text(g);
  Json j = Json::parse(protocol::state_text(v, {"[]", state, m.events().text()}));
  for (const char* room_only : {"type", "room", "version", "game", "seats", "spectators", "commit"})
    j.erase(room_only);
  j["step"] = step;
  j["seat"] = by ? Json(by->seat) : Json(nullptr);
  j["action"] = by ? by->action : Json(nullptr);
  return j;
}

}  // namespace

StepsReplay::StepsReplay(Json record) : record_(std::move(record)) {
  try {
    if (auto it = record_.find("id"); it != record_.end() && it->is_string())
      id_ = it->get<std::string>();
    std::string error;
    head_ = engine::Record::from_json(record_, error);
    if (!head_) {
      fail(error);
      return;
    }
    engine::Problems problems;
    match_ = engine::Match::start(*head_, problems);
    if (!match_) {
      for (const auto& p : problems)
        error += (error.empty() ? "" : "; ") + p.field + ": " + p.message;
      fail(error);
      return;
    }
    steps_.get_ref<Json::array_t&>().reserve(head_->actions.size() + 1);
    push_step(nullptr);
  } catch (const std::exception& e) {  // a malformed record (a JSON type error), or the engine
    fail(e.what());
  }
}

void StepsReplay::fail(std::string why) {
  spdlog::error("api: game {} does not replay: {}", id_, why);
  failed_ = error_reply(500, "replay_failed", "game " + id_ + " does not replay: " + why);
}

void StepsReplay::push_step(const engine::RecordedAction* by) {
  steps_.push_back(step_json(*match_, head_->game, steps_.size(), by));
}

bool StepsReplay::advance(std::size_t actions) {
  if (failed_) return true;
  try {
    // R2: the record's actions in order, each checked against the legal list as when it was
    // played (R3: a resignation is recorded as "resign").
    const std::size_t end = next_ + std::min(actions, head_->actions.size() - next_);
    for (; next_ < end; ++next_) {
      const auto& a = head_->actions[next_];
      // A decision the computer made for the seat says so in its events, as it did in the room.
      const Json& logged = record_["actions"][next_];
      const std::string by = logged.is_object() ? logged.value("by", std::string()) : "";
      auto refusal = a.action == Json(engine::kResign) ? match_->resign(a.seat)
                                                       : match_->act(a.seat, a.action, by);
      if (refusal) {
        fail("actions[" + std::to_string(next_) + "]: refused (" +
             std::string(engine::to_string(refusal->code)) + "): " + refusal->message);
        return true;
      }
      push_step(&a);
    }
    return next_ == head_->actions.size() ? finish() : false;
  } catch (const std::exception& e) {
    fail(e.what());
    return true;
  }
}

bool StepsReplay::finish() {
  const engine::Game& g = match_->game();
  if (g.status() != engine::Status::finished) {
    fail("the record ends before the game does");
    return true;
  }
  const engine::Result res = match_->result();
  Json replayed = {{"places", res.places}, {"reason", res.reason}};
  const Json& recorded = record_["result"];
  if (!recorded.is_object() || !(recorded.value("places", Json()) == replayed["places"]) ||
      !(recorded.value("reason", Json()) == replayed["reason"]))
    fail("result: recorded " + recorded.dump() + ", replayed " + replayed.dump());
  return true;
}

Reply StepsReplay::reply() {
  if (failed_) return std::move(*failed_);
  record_.erase("actions");  // each step carries its own
  record_["steps"] = std::move(steps_);
  return {200, std::move(record_)};
}

Reply steps(Json record) {
  StepsReplay replay(std::move(record));
  while (!replay.advance(kStepsMax)) {
  }
  return replay.reply();
}

Reply error_reply(unsigned status, std::string_view code, std::string message) {
  return {status,
          {{"error", {{"code", code}, {"message", std::move(message)}}}, {"status", status}}};
}

bool is_api_path(std::string_view path) { return path.starts_with(kApiPrefix) || path == "/api"; }

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
    if (std::string_view rest = path.substr(11); rest.ends_with("/steps")) {
      auto id = segment(rest.substr(0, rest.size() - 6));
      if (!id) return no_such_path(path);
      return GetSteps{std::move(*id)};
    }
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

}  // namespace tanbo_server::server::api
