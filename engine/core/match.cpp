#include "engine/core/match.hpp"

#include <algorithm>

#include "engine/core/json_object.hpp"
#include "engine/core/json_sink.hpp"

namespace tanbo_server::engine {
namespace {

Refusal left_game(Seat seat) {
  return {RefusalCode::not_in_game,
          "seat " + std::to_string(seat) + " has left the game and decides nothing"};
}

Refusal illegal(const Pending& p, const Json& action) {
  return {RefusalCode::illegal_action,
          "not a legal " + std::string(p.decision) + " action: " + action.dump()};
}

}  // namespace

std::unique_ptr<Match> Match::start(const Record& head, Problems& problems) {
  Record record = head;
  record.actions.clear();
  Drbg creation_rng(record.seed);
  Created created =
      create_game(record.game, record.options, record.setup, record.players, creation_rng);
  if (!created.game) {
    problems = std::move(created.problems);
    return nullptr;
  }
  record.options = created.options;
  auto match =
      std::unique_ptr<Match>(new Match(std::move(created.game), std::move(record), created.first));
  // The first-seat draw (if any) was the stream's first; the match's RNG goes on from there.
  match->rng_ = creation_rng;
  match->events_.add("start", "first", match->first_);
  match->settle();
  return match;
}

Match::Match(std::unique_ptr<Game> game, Record record, Seat first)
    : game_(std::move(game)), record_(std::move(record)), first_(first), rng_(record_.seed) {}

void Match::settle(std::string_view end_reason) {
  legal_json_built_ = false;
  for (;;) {
    if (game_->status() == Status::finished) {
      legal_.clear();
      Result r = game_->result();
      if (!end_reason.empty()) r.reason = end_reason;
      events_.add("end", "result", object("places", std::move(r.places), "reason", r.reason));
      return;
    }
    game_->legal_actions(legal_);
    if (legal_.size() != 1) break;
    // R4: a decision with one legal action is taken at once and never logged.
    const Action forced = legal_.front();
    events_.add("forced", "seat", game_->pending().seat, "action",
                [&](JsonSink& out) { game_->write_action(forced, out); });
    game_->apply(forced, rng_, &events_);
  }
}

const Json& Match::legal_json() const {
  if (!legal_json_built_) {
    legal_json_ = Json::array();
    for (Action a : legal_) legal_json_.push_back(game_->action_json(a));
    legal_json_built_ = true;
  }
  return legal_json_;
}

Json Match::legal_action(std::size_t i) const {
  return legal_json_built_ ? legal_json_[i] : game_->action_json(legal_[i]);
}

std::optional<Refusal> Match::act(Seat seat, const Json& action, std::string_view by) {
  if (game_->status() == Status::finished)
    return Refusal{RefusalCode::game_over, "the game is over"};
  if (seat < 0 || seat >= game_->players()) return Refusal{RefusalCode::not_seated, "no such seat"};
  if (!game_->in_game(seat)) return left_game(seat);
  Pending p = game_->pending();
  if (seat != p.seat)
    return Refusal{RefusalCode::not_your_turn, "seat " + std::to_string(p.seat) + " must decide (" +
                                                   std::string(p.decision) + ")"};
  // The action read back into its code, found in the legal list by code, then compared as JSON
  // with the list a client was sent (or that one action's JSON): one comparison per step, and no
  // list built for the step it ends.
  const std::optional<Action> code = game_->parse_action(action);
  const auto at = code ? std::find(legal_.begin(), legal_.end(), *code) : legal_.end();
  if (at == legal_.end()) return illegal(p, action);
  Json verbatim =
      legal_json_built_ ? legal_json_[std::size_t(at - legal_.begin())] : game_->action_json(*at);
  // Not `!=`: nlohmann's != is false against a discarded value (or NaN), which would play it.
  if (!(verbatim == action)) return illegal(p, action);
  events_.clear();
  events_.add("action", "seat", seat, "action", verbatim, "by",
              by.empty() ? std::nullopt : std::optional(by));
  game_->apply(*at, rng_, &events_);
  record_.actions.push_back({seat, std::move(verbatim)});
  settle();
  return std::nullopt;
}

std::optional<Refusal> Match::resign(Seat seat) { return leave(seat, "resign", kResign); }

std::optional<Refusal> Match::time_out(Seat seat) {
  auto no = leave(seat, "time", kTimeout, "time");
  ended_on_time_ = !no && game_->status() == Status::finished;
  return no;
}

std::optional<Refusal> Match::leave(Seat seat, std::string_view why, std::string_view recorded,
                                    std::string_view end_reason) {
  if (game_->status() == Status::finished)
    return Refusal{RefusalCode::game_over, "the game is over"};
  if (seat < 0 || seat >= game_->players()) return Refusal{RefusalCode::not_seated, "no such seat"};
  if (!game_->in_game(seat)) return left_game(seat);  // R3: one resignation per seat
  events_.clear();
  events_.add(why, "seat", seat);
  game_->resign(seat, &events_);
  record_.actions.push_back({seat, Json(recorded)});
  settle(end_reason);
  return std::nullopt;
}

Result Match::result() const {
  Result r = game_->result();
  if (ended_on_time_) r.reason = "time";
  return r;
}

Replay replay(const Record& record, const std::function<void(std::size_t, const Match&)>& on_step) {
  Replay out;
  out.match = Match::start(record, out.problems);
  if (!out.match) return out;
  for (std::size_t i = 0; i < record.actions.size(); ++i) {
    const auto& [seat, action] = record.actions[i];
    const bool resign = action == Json(kResign), time_out = action == Json(kTimeout);
    // Records kept before R3's one resignation per seat may repeat one: it changed nothing then.
    if (resign && seat >= 0 && seat < out.match->game().players() &&
        !out.match->game().in_game(seat) && out.match->game().status() != Status::finished)
      continue;
    out.refusal = resign     ? out.match->resign(seat)
                  : time_out ? out.match->time_out(seat)
                             : out.match->act(seat, action);
    if (out.refusal) {
      out.failed_at = i;
      return out;
    }
    if (on_step) on_step(i, *out.match);
  }
  return out;
}

}  // namespace tanbo_server::engine
