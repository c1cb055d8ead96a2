#pragma once
// Game options as the registry describes them, and their validation: every bad option is named.
#include <string>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo_server::engine {

struct OptionSpec {
  enum class Kind { integer, boolean, choice };
  std::string name;
  Kind kind = Kind::integer;
  Json default_value;
  // integer: the allowed values when non-empty, else [min, max]; choice: the allowed strings.
  std::vector<Json> allowed;
  int min = 0, max = 0;
  std::string help;

  Json to_json() const;
};

struct Problem {
  std::string field;
  std::string message;
  friend bool operator==(const Problem&, const Problem&) = default;
};
using Problems = std::vector<Problem>;

// Checks options (a JSON object, or null for all defaults) against specs. Returns the options
// with every default filled in; problems names each unknown, mistyped or out-of-range option.
Json validate_options(const std::vector<OptionSpec>& specs, const Json& options,
                      Problems& problems);

}  // namespace tanbo_server::engine
