#include "engine/core/options.hpp"

#include <algorithm>

namespace tanbo_server::engine {
namespace {

std::string describe_allowed(const OptionSpec& spec) {
  if (spec.kind == OptionSpec::Kind::boolean) return "true or false";
  if (spec.allowed.empty()) return std::to_string(spec.min) + " to " + std::to_string(spec.max);
  std::string s = "one of ";
  for (std::size_t i = 0; i < spec.allowed.size(); ++i)
    s += (i ? ", " : "") + spec.allowed[i].dump();
  return s;
}

bool accepts(const OptionSpec& spec, const Json& value) {
  switch (spec.kind) {
    case OptionSpec::Kind::boolean:
      return value.is_boolean();
    case OptionSpec::Kind::integer:
      if (!value.is_number_integer()) return false;
      if (!spec.allowed.empty())
        return std::find(spec.allowed.begin(), spec.allowed.end(), value) != spec.allowed.end();
      return value.get<long long>() >= spec.min && value.get<long long>() <= spec.max;
    case OptionSpec::Kind::choice:
      return std::find(spec.allowed.begin(), spec.allowed.end(), value) != spec.allowed.end();
  }
  return false;
}

}  // namespace

Json OptionSpec::to_json() const {
  Json j = {{"name", name}, {"default", default_value}, {"help", help}};
  switch (kind) {
    case Kind::boolean:
      j["type"] = "boolean";
      break;
    case Kind::choice:
      j["type"] = "choice";
      j["allowed"] = allowed;
      break;
    case Kind::integer:
      j["type"] = "integer";
      if (allowed.empty())
        j["min"] = min, j["max"] = max;
      else
        j["allowed"] = allowed;
      break;
  }
  return j;
}

Json validate_options(const std::vector<OptionSpec>& specs, const Json& options,
                      Problems& problems) {
  Json out = Json::object();
  for (const auto& spec : specs) out[spec.name] = spec.default_value;
  if (options.is_null()) return out;
  if (!options.is_object()) {
    problems.push_back({"options", "options must be a JSON object"});
    return out;
  }
  for (const auto& [name, value] : options.items()) {
    auto spec = std::find_if(specs.begin(), specs.end(),
                             [&name = name](auto& s) { return s.name == name; });
    if (spec == specs.end()) {
      problems.push_back({name, "unknown option"});
    } else if (!accepts(*spec, value)) {
      problems.push_back({name, "got " + value.dump() + ", expected " + describe_allowed(*spec)});
    } else {
      out[name] = value;
    }
  }
  return out;
}

}  // namespace tanbo_server::engine
