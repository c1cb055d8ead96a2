#include "tests/support/games/nim.hpp"

#include "engine/core/events.hpp"
#include "engine/core/json_read.hpp"

namespace tanbo_server::engine::games::nim {
namespace {

std::unique_ptr<Game> create(const CreateArgs& args) {
  if (!args.setup.is_null()) throw BadSetup{"setup", "nim has only the standard set-up"};
  return std::make_unique<Nim>(args.options.at("heaps").get<int>(), args.first);
}

}  // namespace

const GameInfo& info() {
  static const GameInfo game{
      "nim",
      "Nim",
      "Take stones from one heap; whoever takes the last stone wins",
      2,
      2,
      2,
      {{"heaps", OptionSpec::Kind::integer, 3, {}, 1, 5, "heaps of 3, 4, 5, ... stones"}},
      create,
      {evaluate, reset_as<Nim>}};
  return game;
}

// The nim-sum (the heaps' XOR) decides: zero, and the player to move loses against best play.
double evaluate(const Game& g, Seat seat) {
  const auto& nim = static_cast<const Nim&>(g);
  int sum = 0;
  for (int h : nim.heaps()) sum ^= h;
  const bool mover_wins = sum != 0;
  return (nim.pending().seat == seat) == mover_wins ? 1 : -1;
}

Nim::Nim(int heaps, Seat first) : to_move_(first) {
  for (int h = 0; h < heaps; ++h) heaps_.push_back(3 + h);
}

void Nim::legal_actions(ActionList& out) const {
  out.clear();
  if (winner_ != kNoSeat) return;
  for (std::size_t h = 0; h < heaps_.size(); ++h)
    for (int n = 1; n <= heaps_[h]; ++n) out.push_back(Action{std::uint32_t(h * 256 + n)});
}

void Nim::apply(Action a, Rng&, Events* events) {
  const std::size_t heap = a.code / 256;
  const int take = int(a.code % 256);
  heaps_[heap] -= take;
  if (events) events->add("take", "seat", to_move_, "heap", int(heap), "take", take);
  bool empty = true;
  for (int h : heaps_) empty = empty && h == 0;
  if (empty) winner_ = to_move_;
  to_move_ = 1 - to_move_;
}

void Nim::resign(Seat seat, Events* events) {
  winner_ = 1 - seat;
  resigned_ = true;
  if (events) events->add("win", "seat", winner_);
}

Result Nim::result() const {
  Result r{{2, 2}, resigned_ ? "resigned" : "last_stone"};
  r.places[std::size_t(winner_)] = 1;
  return r;
}

Json Nim::action_json(Action a) const { return {{"heap", a.code / 256}, {"take", a.code % 256}}; }

std::optional<Action> Nim::parse_action(const Json& j) const {
  auto heap = int_in(member(j, "heap"), 0, 255);
  auto take = int_in(member(j, "take"), 1, 255);
  if (!heap || !take || j.size() != 2) return std::nullopt;
  return Action{std::uint32_t(*heap * 256 + *take)};
}

Json Nim::state_json() const { return {{"heaps", heaps_}, {"to_move", to_move_}}; }

std::string Nim::invariant_violation() const {
  for (std::size_t h = 0; h < heaps_.size(); ++h)
    if (heaps_[h] < 0 || heaps_[h] > int(3 + h))
      return "heap " + std::to_string(h) + " out of range";
  return {};
}

}  // namespace tanbo_server::engine::games::nim
