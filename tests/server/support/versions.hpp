#pragma once
// Protocol versions as a client sees them (docs/protocol-changelog.md): what a client of version
// 1 must get, derived from what a client of version 2 got, and a Tanbo game played far enough to
// show every renamed name.
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "tests/server/support/protocol_client.hpp"

namespace tanbo_server::server::test {

// The state frame a client of version 1 gets at the version of `s`, a version 2 client's frame
// (its legal list left out): version 2's names put back to version 1's.
inline json as_v1(json s) {
  s.erase("legal");
  json& st = s["state"];
  if (s.at("game") == "tanbo" && st.is_object()) {
    st["to_move"] = st.at("tokens_to_move");
    st.erase("tokens_to_move");
  }
  if (s.at("game") == "steere-tanbo" && st.is_object()) {
    if (st.contains("colour_to_move"))
      st["to_move"] = st.at("colour_to_move");
    else
      st.erase("to_move");
    st.erase("colour_to_move");
  }
  for (auto& e : s["events"])
    if (e.at("type") == "paddy_action") e["type"] = "action";
  return s;
}

inline bool has_event(const json& state, const std::string& type) {
  for (const auto& e : state.at("events"))
    if (e.at("type") == type) return true;
  return false;
}

// Every state `c` reads until the room is at `version` (or finished), by version; the last one
// read at each version.
inline std::map<std::uint64_t, json> states_until(ProtocolClient& c, std::uint64_t version) {
  std::map<std::uint64_t, json> out;
  for (;;) {
    json m = c.next();
    if (m.at("type") != "state") continue;
    const std::uint64_t v = m.at("version");
    const bool over = m.at("status") == "finished";
    out[v] = std::move(m);
    if (v >= version || over) return out;
  }
}

// Seat `me` of a Tanbo room plays the first legal action at each of its decisions, the others
// being the computer's, from the state `state` on, until `enough` of its states carried a T4
// `paddy_action` (or the game ends, or 2000 versions pass). Every state read, by version.
inline std::map<std::uint64_t, json> play_tanbo(ProtocolClient& c, const std::string& room,
                                                json state, int enough) {
  std::map<std::uint64_t, json> out;
  std::uint64_t acted = 0;
  int actions = 0;
  for (;;) {
    const std::uint64_t v = state.at("version");
    actions += has_event(state, "paddy_action");
    if (state.contains("legal") && v != acted) {
      acted = v;
      c.send({{"type", "act"}, {"room", room}, {"version", v}, {"action", state["legal"][0]}});
    }
    const bool over = state.at("status") == "finished";
    out[v] = std::move(state);
    if (actions >= enough || over || v > 2000) return out;
    do state = c.next();
    while (state.at("type") != "state");
  }
}

}  // namespace tanbo_server::server::test
