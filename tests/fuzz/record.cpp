// Target (4): an arbitrary record file through what `tanbo-engine replay` and `tanbo-engine
// verify` do with it: parse, Record::from_json, replay with every step's state and result
// rendered, verify_record. Nothing may throw or crash; a verified record replays cleanly; a
// record that replays gives the same record back through its own JSON.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/cli/verify.hpp"
#include "engine/core/match.hpp"
#include "tests/fuzz/check.hpp"

using namespace tanbo_server::engine;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  Json j = Json::parse(text, nullptr, false);
  if (j.is_discarded()) return 0;

  // replay FILE
  std::string error;
  auto record = Record::from_json(j, error);
  bool replays = false;
  if (record) {
    std::size_t lines = 0;
    Replay r = replay(*record, [&](std::size_t i, const Match& m) {
      Json line = replay_line(*record, i, m);
      TANBO_FUZZ_CHECK(!line.dump().empty(), "");
      if (auto v = m.game().invariant_violation(); !v.empty())
        tanbo_server::fuzz::broken("invariant_violation after a replayed step",
                                   v + "\n" + j.dump());
      ++lines;
    });
    if (r.match) {
      replays = !r.refusal;
      TANBO_FUZZ_CHECK(lines == (r.refusal ? r.failed_at : record->actions.size()), j.dump());
      if (replays) {
        // The record the replay built reads back as itself (options normalized, seed hex).
        Record again = r.match->record();
        auto back = Record::from_json(again.to_json(), error);
        TANBO_FUZZ_CHECK(back && back->to_json() == again.to_json(), error + "\n" + j.dump());
        TANBO_FUZZ_CHECK(again.actions == record->actions, j.dump());
      }
    } else {
      TANBO_FUZZ_CHECK(!r.problems.empty(), j.dump());
    }
  } else {
    TANBO_FUZZ_CHECK(!error.empty(), j.dump());
  }

  // verify FILE
  Verdict v = verify_record(j);
  TANBO_FUZZ_CHECK(v.verified == v.mismatch.empty(), j.dump());
  if (v.verified) TANBO_FUZZ_CHECK(record && replays, j.dump());
  return 0;
}
