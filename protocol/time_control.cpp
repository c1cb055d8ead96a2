#include "protocol/time_control.hpp"

#include <algorithm>

namespace tanbo_server::protocol {

namespace {

// A whole number within [lo, hi], as the schema's integers: 30.0 is 30, 30.5 is not.
std::optional<int> integer_in(const Json& j, const char* key, int lo, int hi) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  if (v < lo || v > hi || v != static_cast<int>(v)) return std::nullopt;
  return static_cast<int>(v);
}

template <std::size_t N>
std::optional<int> one_of(std::optional<int> v, const std::array<int, N>& allowed) {
  if (v && std::find(allowed.begin(), allowed.end(), *v) != allowed.end()) return v;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(TimeControl::Kind kind) {
  switch (kind) {
    case TimeControl::Kind::none:
      return "none";
    case TimeControl::Kind::per_decision:
      return "per_decision";
    case TimeControl::Kind::clock:
      return "clock";
    case TimeControl::Kind::correspondence:
      return "correspondence";
  }
  return "none";
}

Json TimeControl::to_json() const {
  switch (kind) {
    case Kind::none:
      return "none";
    case Kind::per_decision:  // the short form clients have always sent
      return seconds;
    case Kind::clock:
      return {{"type", "clock"}, {"base_s", base_s}, {"increment_s", increment_s}};
    case Kind::correspondence:
      return {{"type", "correspondence"}, {"days", days}};
  }
  return "none";
}

std::optional<TimeControl> read_time_control(const Json& j, std::string& why) {
  if (j == Json("none")) return TimeControl{};
  for (int s : kTimerSeconds)
    if (j == Json(s)) return TimeControl::per_decision(s);
  const auto type = j.is_object() && j.contains("type") && j["type"].is_string()
                        ? j["type"].get<std::string>()
                        : std::string();
  const auto extra = [&](std::initializer_list<const char*> keys) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      const std::string& k = it.key();
      if (std::none_of(keys.begin(), keys.end(), [&](const char* x) { return k == x; }))
        return true;
    }
    return false;
  };
  if (type == "clock") {
    auto base = integer_in(j, "base_s", kMinClockBaseSeconds, kMaxClockBaseSeconds);
    auto inc = integer_in(j, "increment_s", 0, kMaxClockIncrementSeconds);
    if (base && inc && !extra({"type", "base_s", "increment_s"}))
      return TimeControl::clock(*base, *inc);
    why = "a clock takes base_s (30 to 3600) and increment_s (0 to 60), whole seconds";
    return std::nullopt;
  }
  if (type == "correspondence") {
    auto d = one_of(integer_in(j, "days", 1, 14), kCorrespondenceDays);
    if (d && !extra({"type", "days"})) return TimeControl::correspondence(*d);
    why = "correspondence takes days: 1, 2, 3, 5, 7 or 14";
    return std::nullopt;
  }
  if (type == "per_decision") {
    auto s = one_of(integer_in(j, "seconds", 30, 60), kTimerSeconds);
    if (s && !extra({"type", "seconds"})) return TimeControl::per_decision(*s);
    why = "per_decision takes seconds: 30 or 60";
    return std::nullopt;
  }
  why =
      "expected \"none\", 30, 60, {\"type\": \"clock\", \"base_s\", \"increment_s\"} or "
      "{\"type\": \"correspondence\", \"days\"}";
  return std::nullopt;
}

}  // namespace tanbo_server::protocol
