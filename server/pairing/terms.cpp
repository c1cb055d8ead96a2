#include "server/pairing/terms.hpp"

#include "engine/core/registry.hpp"
#include "engine/core/rng.hpp"
#include "engine/core/sha256.hpp"
#include "protocol/server.hpp"

namespace tanbo_server::server::pairing {

Checked check_game(const std::string& game, const protocol::Json& options,
                   const protocol::Json& setup, int players) {
  // Validation only: this throw-away draw decides nothing (the game's seed is drawn at start).
  engine::Drbg scratch(engine::seed_from_text("validation"));
  auto created = engine::create_game(game, options, setup, players, scratch);
  return {std::move(created.options), std::move(created.problems)};
}

CheckedTerms check_terms(protocol::GameTerms terms) {
  const auto* info = engine::find_game(terms.game);
  if (!info) return {std::move(terms), {{"game", "unknown game"}}};
  terms.players = terms.players.value_or(info->default_players);
  auto checked = check_game(terms.game, terms.options, nullptr, *terms.players);
  terms.options = std::move(checked.options);
  return {std::move(terms), std::move(checked.problems)};
}

std::string pool_id(const protocol::GameTerms& t) {
  auto digest = engine::sha256(protocol::terms_json(t).dump());
  return engine::to_hex(std::span(digest).first(6));
}

protocol::Json to_json(const protocol::GameTerms& t) { return protocol::terms_json(t); }

std::optional<protocol::GameTerms> terms_from_json(const protocol::Json& j) {
  try {
    protocol::GameTerms t;
    t.game = j.at("game").get<std::string>();
    t.players = j.at("players").get<int>();
    t.options = j.at("options");
    std::string why;
    auto timer = protocol::read_time_control(j.at("timer"), why);
    if (!timer) return std::nullopt;
    t.timer = *timer;
    t.ranked = j.at("ranked").get<bool>();
    t.bots = j.value("bots", false);
    return t;
  } catch (const protocol::Json::exception&) {
    return std::nullopt;
  }
}

}  // namespace tanbo_server::server::pairing
