#include "tests/server/rooms/fixture.hpp"

#include <stdexcept>

namespace tanbo_server::server::test {

json without_legal(json s) {
  s.erase("legal");
  return s;
}

Table Table::seat(std::uint16_t port, const std::string& game, int players, int spectators,
                  const json& options) {
  Table t;
  for (int i = 0; i < players; ++i) {
    t.players.push_back(std::make_unique<ProtocolClient>(port));
    t.tokens.push_back(t.players.back()->hello("Player " + std::to_string(i)).at("token"));
  }
  t.seen.resize(std::size_t(players));
  auto& p0 = *t.players[0];
  p0.send(
      {{"type", "create"}, {"id", 1}, {"game", game}, {"players", players}, {"options", options}});
  json created = p0.expect("created");
  t.room = created.at("room");
  if (created.at("seat") != 0) throw std::runtime_error("the creator is not at seat 0");
  t.seen[0] = p0.expect("state");
  for (int i = 0; i < spectators; ++i) {
    t.spectators.push_back(std::make_unique<ProtocolClient>(port));
    auto& s = *t.spectators.back();
    s.hello("Spectator " + std::to_string(i));
    s.send({{"type", "join"}, {"id", 2}, {"room", t.room}, {"as", "spectator"}});
    s.expect("joined");
    s.expect("state");  // the joiner's alone: the others see the count in the next state
  }
  for (int i = 1; i < players; ++i) {
    auto& p = *t.players[std::size_t(i)];
    p.send({{"type", "join"}, {"id", 3}, {"room", t.room}, {"as", "player"}});
    if (p.expect("joined").at("seat") != i) throw std::runtime_error("joined the wrong seat");
    t.seen[std::size_t(i)] = p.expect("state");
    for (int k = 0; k < i; ++k) t.seen[std::size_t(k)] = t.players[std::size_t(k)]->expect("state");
    for (auto& s : t.spectators) t.state = s->expect("state");
  }
  if (spectators == 0) t.state = without_legal(t.seen[0]);
  return t;
}

void Table::read_states(std::uint64_t version) {
  for (std::size_t i = 0; i < players.size(); ++i) {
    seen[i] = players[i]->expect("state");
    if (seen[i].at("version") != version)
      throw std::runtime_error("player " + std::to_string(i) + " got version " +
                               seen[i].at("version").dump() + ", expected " +
                               std::to_string(version));
  }
  for (auto& s : spectators) {
    state = s->expect("state");
    if (state.at("version") != version)
      throw std::runtime_error("a spectator got version " + state.at("version").dump() +
                               ", expected " + std::to_string(version));
  }
  if (spectators.empty()) state = without_legal(seen[0]);
}

void Table::catch_up(std::uint64_t version) {
  auto read = [&](ProtocolClient& c) {
    for (;;) {
      json s = c.expect("state");
      if (s.at("version") == version) return s;
      if (s.at("version") > version) throw std::runtime_error("skipped a version: " + s.dump());
    }
  };
  for (std::size_t i = 0; i < players.size(); ++i) seen[i] = read(*players[i]);
  for (auto& s : spectators) state = read(*s);
  if (spectators.empty()) state = without_legal(seen[0]);
}

int Table::deciding() const {
  const auto& p = state.at("pending");
  return p.is_null() ? -1 : p.at("seat").get<int>();
}

std::uint64_t Table::play_first() {
  const int seat = deciding();
  const std::uint64_t v = state.at("version");
  at(seat).send({{"type", "act"},
                 {"room", room},
                 {"version", v},
                 {"action", seen[std::size_t(seat)].at("legal")[0]}});
  return v;
}

}  // namespace tanbo_server::server::test
