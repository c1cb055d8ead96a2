#pragma once
// The codes of the referee's refusals. They are stable: the protocol sends each as its error
// code of the same name (protocol/errors.hpp), checked when it compiles.
#include <array>
#include <cstdint>
#include <string_view>

namespace tanbo_server::engine {

enum class RefusalCode : std::uint8_t {
  game_over,       // the game has finished
  not_seated,      // no such seat
  not_in_game,     // the seat has left the game (resigned, or placed)
  not_your_turn,   // another seat must decide
  illegal_action,  // not one of the legal actions
};

constexpr std::string_view to_string(RefusalCode c) {
  switch (c) {
    case RefusalCode::game_over:
      return "game_over";
    case RefusalCode::not_seated:
      return "not_seated";
    case RefusalCode::not_in_game:
      return "not_in_game";
    case RefusalCode::not_your_turn:
      return "not_your_turn";
    case RefusalCode::illegal_action:
      return "illegal_action";
  }
  return "?";  // not reached: every code has its case
}

inline constexpr std::array kRefusalCodes = {RefusalCode::game_over, RefusalCode::not_seated,
                                             RefusalCode::not_in_game, RefusalCode::not_your_turn,
                                             RefusalCode::illegal_action};

}  // namespace tanbo_server::engine
