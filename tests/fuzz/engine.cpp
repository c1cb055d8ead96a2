// Target (3), one executable per game (TANBO_FUZZ_GAME): fuzzed options and player count, then
// the input's own choices through Match, the referee's path: legal actions (most of the time),
// mutated ones, random ones, wrong seats, resignations. After every step: no
// invariant_violation(), a non-empty legal list while the game goes on, a refused action leaves
// state, legal list and record untouched, an accepted one was legal; at the end the record
// replays to the same state (R2). Every check is cheap per step (the costly ones run at the end
// and on one step in sixteen), so the fuzzer tries thousands of inputs a second and grows the
// ones that reach deeper positions.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/json_sink.hpp"
#include "engine/core/match.hpp"
#include "engine/core/registry.hpp"
#include "tests/fuzz/check.hpp"
#include "tests/fuzz/json_gen.hpp"

namespace {

using namespace tanbo_server::engine;
using tanbo_server::fuzz::broken;

// Steps per input: a longer input is cut here, so that an input costs about a millisecond under
// the sanitizers. Small boards, short options (option_value) and resignations still end games.
constexpr int kMaxSteps = 64;

Json option_value(const OptionSpec& spec, FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 7)) {
    case 0:
      return tanbo_server::fuzz::random_scalar(in);  // mostly refused: create must say why
    case 1:
      return spec.default_value;
    default:
      break;
  }
  if (!spec.allowed.empty())
    return spec.allowed[in.ConsumeIntegralInRange<std::size_t>(0, spec.allowed.size() - 1)];
  if (spec.kind == OptionSpec::Kind::boolean) return in.ConsumeBool();
  // Small values most of the time: a game of 1000 stall rounds never ends within one input.
  int hi = in.ConsumeBool() ? std::min(spec.max, spec.min + 4) : spec.max;
  return in.ConsumeIntegralInRange(spec.min, std::max(spec.min, hi));
}

std::string context(const Match& m) { return m.record().to_json().dump(); }

// What must hold after every accepted step (the full check: `thorough` adds the legal list's
// read-back and uniqueness, which cost a pass and a sort).
void check(const Match& m, bool thorough = true) {
  const Game& g = m.game();
  if (auto v = g.invariant_violation(); !v.empty())
    broken("invariant_violation", v + "\n" + context(m));
  if (g.status() == Status::finished) {
    TANBO_FUZZ_CHECK(m.legal_count() == 0 && m.legal_json().empty(), context(m));
    Result r = g.result();
    TANBO_FUZZ_CHECK(int(r.places.size()) == g.players(), context(m));
    bool winner = false;
    for (int p : r.places) {
      TANBO_FUZZ_CHECK(p >= 1 && p <= g.players(), context(m));
      winner = winner || p == 1;
    }
    TANBO_FUZZ_CHECK(winner, context(m));
    return;
  }
  TANBO_FUZZ_CHECK(m.legal_count() > 0, context(m));
  Pending p = g.pending();
  TANBO_FUZZ_CHECK(p.seat >= 0 && p.seat < g.players(), context(m));
  TANBO_FUZZ_CHECK(!p.decision.empty(), context(m));
  if (!thorough) return;
  // Every legal action shown is an object that reads back to its own code, and no code comes
  // twice: so no two legal actions show the same JSON, without a text per action to sort.
  const Json& shown = m.legal_json();
  ActionList codes;
  g.legal_actions(codes);
  TANBO_FUZZ_CHECK(shown.size() == m.legal_count() && codes.size() == shown.size(), context(m));
  for (std::size_t i = 0; i < codes.size(); ++i) {
    TANBO_FUZZ_CHECK(shown[i].is_object(), "an action that is not an object\n" + context(m));
    TANBO_FUZZ_CHECK(g.parse_action(shown[i]) == codes[i],
                     shown[i].dump() + " does not read back to its code\n" + context(m));
  }
  std::sort(codes.begin(), codes.end(), [](Action a, Action b) { return a.code < b.code; });
  TANBO_FUZZ_CHECK(std::adjacent_find(codes.begin(), codes.end()) == codes.end(),
                   "duplicate legal action\n" + context(m));
}

bool is_legal(const Match& m, const Json& action) {
  const auto& legal = m.legal_json();
  return std::find(legal.begin(), legal.end(), action) != legal.end();
}

// A refusal changes nothing the referee shows. The whole state and legal list are compared on
// one refusal in eight (they cost more than the step): a refusal that moves the game still shows
// up within a few inputs, and the cheap part is compared on every one. The legal list is
// compared by its codes; that its JSON reads back to them is check()'s part.
struct Snapshot {
  std::size_t actions;
  Status status;
  Seat seat;
  std::size_t legal_size;
  std::string state;
  ActionList legal;
  Snapshot(const Match& m, bool whole)
      : actions(m.record().actions.size()),
        status(m.game().status()),
        seat(status == Status::finished ? kNoSeat : m.game().pending().seat),
        legal_size(m.legal_count()) {
    if (!whole) return;
    state = state_text(m.game());
    m.game().legal_actions(legal);
  }
  bool operator==(const Snapshot&) const = default;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const GameInfo* info = find_game(TANBO_FUZZ_GAME);
  if (!info) broken("the game is registered", TANBO_FUZZ_GAME);
  FuzzedDataProvider in(data, size);

  Record head;
  head.game = info->id;
  head.players = in.ConsumeIntegralInRange(info->min_players - 1, info->max_players);
  if (in.ConsumeIntegralInRange(0, 7) == 0) head.players = info->default_players;
  for (const auto& spec : option_specs(*info))
    if (in.ConsumeBool()) head.options[spec.name] = option_value(spec, in);
  if (in.ConsumeIntegralInRange(0, 15) == 0) head.setup = tanbo_server::fuzz::random_json(in);
  head.seed = seed_from_text(in.ConsumeBytesAsString(8));

  Problems problems;
  auto m = Match::start(head, problems);
  if (!m) {
    TANBO_FUZZ_CHECK(!problems.empty(), head.to_json().dump());
    return 0;
  }
  // An opening is the same for every input with its options and seed: its legal list is read
  // back in full on one input in eight, the position reached on every one (below).
  check(*m, size % 8 == 1);

  for (int steps = 1; in.remaining_bytes() > 0 && steps <= kMaxSteps; ++steps) {
    const Game& g = m->game();
    bool over = g.status() == Status::finished;
    Seat seat = over ? 0 : g.pending().seat;
    if (in.ConsumeIntegralInRange(0, 7) == 0) seat = in.ConsumeIntegralInRange(-1, g.players());
    int op = in.ConsumeIntegralInRange(0, 31);
    if (op == 31) {  // R3: any seat may resign while the game goes on
      Snapshot before(*m, steps % 8 == 0);
      // A seat that has left a game the others play on (M5) decides nothing more (R3).
      const bool may = !over && seat >= 0 && seat < g.players() && g.in_game(seat);
      auto no = m->resign(seat);
      TANBO_FUZZ_CHECK(bool(no) != may, context(*m));
      if (no) TANBO_FUZZ_CHECK(Snapshot(*m, steps % 8 == 0) == before, context(*m));
      if (!no) check(*m, steps % 16 == 0);
      continue;
    }
    // A legal action is taken one by one, without the whole list (the referee builds it only
    // when asked); whether anything else is legal asks the list.
    Json action;
    bool picked = false;
    const std::size_t legal = m->legal_count();
    if (legal > 0 && op < 20)
      action = m->legal_action(in.ConsumeIntegralInRange<std::size_t>(0, legal - 1)), picked = true;
    else if (legal > 0 && op < 27)
      action = m->legal_action(in.ConsumeIntegralInRange<std::size_t>(0, legal - 1)),
      tanbo_server::fuzz::mutate(action, in);
    else if (op < 30)
      action = tanbo_server::fuzz::random_json(in);
    else
      action = Json::parse(in.ConsumeRandomLengthString(64), nullptr, false);
    // Every action is an object (the thorough check says so): anything else is refused without
    // building the list to look.
    bool expect = !over && seat == g.pending().seat &&
                  (picked || (action.is_object() && is_legal(*m, action)));
    // Only an action expected to be refused needs the picture of what a refusal must not change.
    std::optional<Snapshot> before;
    if (!expect) before.emplace(*m, steps % 8 == 0);
    const std::size_t actions = m->record().actions.size();
    auto no = m->act(seat, action);
    if (no) {
      TANBO_FUZZ_CHECK(!expect, "refused a legal action: " + no->message + "\n" + context(*m));
      TANBO_FUZZ_CHECK(Snapshot(*m, steps % 8 == 0) == *before,
                       "a refusal changed the game\n" + context(*m));
    } else {
      TANBO_FUZZ_CHECK(expect, "accepted " + action.dump() + "\n" + context(*m));
      TANBO_FUZZ_CHECK(m->record().actions.size() == actions + 1, context(*m));
      check(*m, steps % 16 == 0);
    }
  }

  check(*m);

  // R2: the record alone gives the same game back, and a clone is the same game. One input in
  // eight: a replay costs as much as the game.
  if (size % 8 != 0) return 0;
  Replay r = replay(m->record());
  TANBO_FUZZ_CHECK(r.match && !r.refusal, context(*m));
  const std::string state = state_text(m->game());
  TANBO_FUZZ_CHECK(state_text(r.match->game()) == state, context(*m));
  TANBO_FUZZ_CHECK(r.match->legal_json() == m->legal_json(), context(*m));
  TANBO_FUZZ_CHECK(state_text(*m->game().clone()) == state, context(*m));
  return 0;
}
