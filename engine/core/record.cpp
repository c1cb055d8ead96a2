#include "engine/core/record.hpp"

namespace tanbo_server::engine {

Json Record::to_json() const {
  Json acts = Json::array();
  for (const auto& a : actions) acts.push_back({{"seat", a.seat}, {"action", a.action}});
  return {{"game", game},       {"options", options},     {"setup", setup},
          {"players", players}, {"seed", seed_hex(seed)}, {"actions", std::move(acts)}};
}

std::optional<Record> Record::from_json(const Json& j, std::string& error) {
  if (!j.is_object()) return error = "a record is a JSON object", std::nullopt;
  Record r;
  auto game = j.find("game");
  if (game == j.end() || !game->is_string()) return error = "game: expected a string", std::nullopt;
  r.game = game->get<std::string>();
  if (auto o = j.find("options"); o != j.end() && !o->is_null()) {
    if (!o->is_object()) return error = "options: expected an object", std::nullopt;
    r.options = *o;
  }
  if (auto s = j.find("setup"); s != j.end()) r.setup = *s;
  if (auto p = j.find("players"); p != j.end()) {
    if (!p->is_number_integer() || p->get<long long>() < 1 || p->get<long long>() > 64)
      return error = "players: expected a small positive integer", std::nullopt;
    r.players = p->get<int>();
  }
  auto seed = j.find("seed");
  if (seed == j.end() || !seed->is_string())
    return error = "seed: expected 64 hexadecimal digits", std::nullopt;
  auto parsed = seed_from_hex(seed->get<std::string>());
  if (!parsed) return error = "seed: expected 64 hexadecimal digits", std::nullopt;
  r.seed = *parsed;
  auto acts = j.find("actions");
  if (acts == j.end() || !acts->is_array())
    return error = "actions: expected an array", std::nullopt;
  for (std::size_t i = 0; i < acts->size(); ++i) {
    const Json& a = (*acts)[i];
    std::string where = "actions[" + std::to_string(i) + "]";
    if (!a.is_object() || !a.contains("seat") || !a["seat"].is_number_integer() ||
        !a.contains("action"))
      return error = where + ": expected {seat, action}", std::nullopt;
    r.actions.push_back({a["seat"].get<int>(), a["action"]});
  }
  return r;
}

}  // namespace tanbo_server::engine
