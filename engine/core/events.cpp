// The events' text with the names of an older version of the protocol.
#include "engine/core/events.hpp"

namespace tanbo_server::engine {

std::string Events::text(Names names) const {
  if (same_in(names)) return text_;
  std::string out;
  out.reserve(text_.size());
  std::size_t from = 0;
  for (const Rename& r : renames_) {
    out.append(text_, from, r.at - from);
    out += r.type.v1;
    from = r.at + r.type.now.size();
  }
  out.append(text_, from);
  return out;
}

}  // namespace tanbo_server::engine
