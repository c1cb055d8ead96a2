#include "engine/cli/verify.hpp"

#include "engine/core/match.hpp"

namespace tanbo_server::engine {

Verdict verify_record(const Json& j) {
  std::string error;
  if (!j.is_object() || !j.contains("seed")) return {false, "seed: missing (game not finished?)"};
  auto record = Record::from_json(j, error);
  if (!record) return {false, error};
  if (auto commit = j.find("commit"); commit != j.end()) {
    if (!commit->is_string() || *commit != seed_commitment(record->seed))
      return {false, "commit: SHA-256 of the seed is " + seed_commitment(record->seed) +
                         ", the record says " + commit->dump()};
  }
  const Json& actions = j["actions"];
  std::string mismatch;
  Replay r = replay(*record, [&](std::size_t i, const Match& m) {
    if (!mismatch.empty() || !actions[i].contains("events")) return;
    const Json& recorded = actions[i]["events"];
    const Json replayed = m.events().json();
    if (!recorded.is_array()) {
      mismatch = "actions[" + std::to_string(i) + "].events: recorded " + recorded.dump() +
                 ", not a list of events";
      return;
    }
    for (std::size_t k = 0; k < std::max(recorded.size(), replayed.size()); ++k) {
      Json a = k < recorded.size() ? recorded[k] : Json(nullptr);
      Json b = k < replayed.size() ? replayed[k] : Json(nullptr);
      if (a != b) {
        mismatch = "actions[" + std::to_string(i) + "].events[" + std::to_string(k) +
                   "]: recorded " + a.dump() + ", replayed " + b.dump();
        return;
      }
    }
  });
  if (!r.match) {
    std::string what;
    for (auto& p : r.problems) what += (what.empty() ? "" : "; ") + p.field + ": " + p.message;
    return {false, what};
  }
  if (r.refusal)
    return {false, "actions[" + std::to_string(r.failed_at) + "]: refused (" +
                       std::string(to_string(r.refusal->code)) + "): " + r.refusal->message};
  if (!mismatch.empty()) return {false, mismatch};
  if (auto result = j.find("result"); result != j.end() && !result->is_null()) {
    const Game& g = r.match->game();
    if (g.status() != Status::finished)
      return {false, "result: the record has one, but the replayed game is not finished"};
    const Result res = r.match->result();
    Json replayed = {{"places", res.places}, {"reason", res.reason}};
    // value, not operator[]: a const object's operator[] on a missing member is undefined.
    if (!result->is_object() || result->value("places", Json()) != replayed["places"] ||
        result->value("reason", Json()) != replayed["reason"])
      return {false, "result: recorded " + result->dump() + ", replayed " + replayed.dump()};
  }
  return {true, {}};
}

Json replay_line(const Record& record, std::size_t i, const Match& m) {
  Json line = {{"index", i},
               {"seat", record.actions[i].seat},
               {"action", record.actions[i].action},
               {"events", m.events().json()},
               {"status", to_string(m.game().status())},
               {"state", m.game().state_json()}};
  if (m.game().status() == Status::finished)
    line["result"] = {{"places", m.result().places}, {"reason", m.result().reason}};
  return line;
}

}  // namespace tanbo_server::engine
