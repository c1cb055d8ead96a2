#pragma once
// tanbo-engine verify: checks a game record the way a player would (R1, R2): the revealed seed
// matches the published commitment, and replaying the actions reproduces every recorded event
// (each draw among them) and the recorded result.
#include <string>

#include "engine/core/game.hpp"

namespace tanbo_server::engine {

class Match;
struct Record;

struct Verdict {
  bool verified = false;
  std::string mismatch;  // the first one found, naming where; empty when verified
};

// record: {game, options, setup, players, seed, actions:[{seat, action, events?}], commit?,
// result?}. Optional parts are checked when present; a record without a seed cannot be verified.
Verdict verify_record(const Json& record);

// tanbo-engine replay's line for step i of `record`, once `m` has applied it: {index, seat,
// action, events, status, state, result when finished}.
Json replay_line(const Record& record, std::size_t i, const Match& m);

}  // namespace tanbo_server::engine
