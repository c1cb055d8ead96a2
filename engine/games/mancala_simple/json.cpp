// The state as clients see it; the layout is documented in docs/rules/mancala-simple.md.
#include "engine/core/json_sink.hpp"
#include "engine/games/mancala_simple/mancala_simple.hpp"

namespace tanbo_server::engine::games::mancala_simple {

Json MancalaSimple::state_json() const { return state_tree(*this); }

void MancalaSimple::write_action(Action a, JsonSink& out) const {
  out.begin_object();
  out.member("hole", a.code);
  out.end_object();
}

// Members in key order (json_sink.hpp).
void MancalaSimple::write_state(JsonSink& out) const {
  out.begin_object();
  out.member("full_ranking", s_.full_ranking);
  out.member("holes", s_.holes);
  out.key("seats");
  out.begin_array();
  for (Seat t = 0; t < s_.players; ++t) {
    out.begin_object();
    out.key("holes");
    out.begin_array();
    for (int h = 0; h < s_.holes; ++h) out.value(s_.hole(t, h));
    out.end_array();
    out.member("in_circuit", !s_.over() && s_.in_circuit(t));
    out.key("place");
    if (s_.place[t])
      out.value(s_.place[t]);
    else
      out.null();
    out.key("placed");
    if (s_.placed[t] == Placed::open)
      out.null();
    else
      out.string(placed_name(s_.placed[t]));
    out.member("store", s_.store(t));
    out.end_object();
  }
  out.end_array();
  out.member("stones", s_.stones);
  out.key("to_move");
  if (s_.over())
    out.null();
  else
    out.value(s_.to_move);
  out.end_object();
}

}  // namespace tanbo_server::engine::games::mancala_simple
