#pragma once
// The three levels behind make_bot (bot.cpp: random, greedy; mcts.cpp: mcts).
#include <memory>

#include "engine/bots/bot.hpp"

namespace tanbo_server::engine::bots {

// The legal list of the decision `seat` is asked to make; std::logic_error when the game is over,
// `seat` is not the pending seat, or the game lists nothing.
void legal_for(const Game& game, Seat seat, ActionList& out);

std::unique_ptr<Bot> make_random();
std::unique_ptr<Bot> make_greedy();
std::unique_ptr<Bot> make_mcts(const BotConfig& config);

}  // namespace tanbo_server::engine::bots
