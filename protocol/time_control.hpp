#pragma once
// A room's time control, as `create`, `seek` and `challenge` ask for it and the lobby lists it:
// none; seconds per decision (the computer decides when they run out); a Fischer game clock;
// days per decision by correspondence. docs/protocol.md, "Time controls".
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "engine/core/game.hpp"

namespace tanbo_server::protocol {

using Json = engine::Json;

inline constexpr std::array<int, 2> kTimerSeconds = {30, 60};  // per_decision
inline constexpr int kMinClockBaseSeconds = 30, kMaxClockBaseSeconds = 3600;
inline constexpr int kMaxClockIncrementSeconds = 60;
inline constexpr std::array<int, 6> kCorrespondenceDays = {1, 2, 3, 5, 7, 14};

struct TimeControl {
  enum class Kind : std::uint8_t { none, per_decision, clock, correspondence };
  Kind kind = Kind::none;
  int seconds = 0;      // per_decision
  int base_s = 0;       // clock
  int increment_s = 0;  // clock
  int days = 0;         // correspondence

  static TimeControl per_decision(int s) { return {Kind::per_decision, s, 0, 0, 0}; }
  static TimeControl clock(int base, int inc) { return {Kind::clock, 0, base, inc, 0}; }
  static TimeControl correspondence(int d) { return {Kind::correspondence, 0, 0, 0, d}; }

  bool timed() const { return kind != Kind::none; }
  // The wire form: "none", 30 or 60, or an object with its `type`.
  Json to_json() const;
  friend bool operator==(const TimeControl&, const TimeControl&) = default;
};

std::string_view to_string(TimeControl::Kind kind);  // none, per_decision, clock, correspondence
// Reads the wire form; nullopt with `why` set when it is not one (the message names the limits).
std::optional<TimeControl> read_time_control(const Json& j, std::string& why);

}  // namespace tanbo_server::protocol
