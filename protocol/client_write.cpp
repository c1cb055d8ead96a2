// A client's request written as JSON (protocol/client.hpp, to_json): what the tests, the load
// generator and the fuzz targets send, in the names docs/protocol.md gives.
#include "protocol/client.hpp"

namespace tanbo_server::protocol {

namespace {

void write(Json&, const ListGames&) {}
void write(Json&, const WatchLobby&) {}
void write(Json&, const UnwatchLobby&) {}
void write(Json&, const Ping&) {}
void write(Json&, const MyGames&) {}
void write(Json&, const BecomeBot&) {}
void write(Json& j, const Hello& m) {
  if (m.token) j["token"] = *m.token;
  if (m.access_token) j["access_token"] = *m.access_token;
  if (m.name) j["name"] = *m.name;
  if (m.login) {
    j["login"] = {{"username", m.login->username}, {"password", m.login->password}};
    if (m.login->token) j["login"]["token"] = *m.login->token;
  }
  if (m.protocol) j["protocol"] = *m.protocol;
}
void write(Json& j, const Claim& m) {
  j["username"] = m.username;
  j["password"] = m.password;
}
void write(Json& j, const Logout& m) { j["everywhere"] = m.everywhere; }
void write(Json& j, const ChangePassword& m) {
  j["current"] = m.current;
  j["password"] = m.password;
}
void write(Json& j, const ListRooms& m) {
  if (m.game) j["game"] = *m.game;
}
void write(Json& j, const Create& m) {
  j["game"] = m.game;
  j["options"] = m.options;
  if (m.players) j["players"] = *m.players;
  if (m.v1_seats) j["seats"] = *m.v1_seats;
  j["ranked"] = m.ranked;
  j["timer"] = m.timer.to_json();
  Json cpu = Json::array();
  for (const auto& c : m.cpu) cpu.push_back({{"seat", c.seat}, {"level", to_string(c.level)}});
  j["cpu"] = std::move(cpu);
  if (!m.setup.is_null()) j["setup"] = m.setup;
  j["spectator_chat"] = m.spectator_chat;
}
void write(Json& j, const Join& m) {
  j["room"] = m.room;
  j["as"] = to_string(m.as);
  if (m.seat) j["seat"] = *m.seat;
}
void write(Json& j, const Act& m) {
  j["room"] = m.room;
  j["version"] = m.version;
  j["action"] = m.action;
}
void write(Json& j, const Resign& m) { j["room"] = m.room; }
void write(Json& j, const Rematch& m) { j["room"] = m.room; }
void write(Json& j, const Leave& m) { j["room"] = m.room; }
void write(Json& j, const FillCpu& m) {
  j["room"] = m.room;
  j["level"] = to_string(m.level);
}
void write(Json& j, const Resume& m) {
  j["room"] = m.room;
  j["version"] = m.version;
  if (m.chat_players || m.chat_spectators) {
    Json& chat = j["chat"] = Json::object();
    if (m.chat_players) chat["players"] = *m.chat_players;
    if (m.chat_spectators) chat["spectators"] = *m.chat_spectators;
  }
}
void write(Json& j, const Say& m) {
  j["room"] = m.room;
  j["channel"] = to_string(m.channel);
  if (!m.phrase.empty())
    j["phrase"] = m.phrase;
  else
    j["text"] = m.text;
}
void write(Json& j, const Mute& m) { j["player"] = m.player; }
void write(Json& j, const Unmute& m) { j["player"] = m.player; }
void write(Json& j, const Report& m) {
  j["player"] = m.player;
  if (m.room) j["room"] = *m.room;
  j["reason"] = m.reason;
}
void write(Json& j, const SpectatorChat& m) {
  j["room"] = m.room;
  j["open"] = m.open;
}
void write_terms(Json& j, const GameTerms& t) {
  j["game"] = t.game;
  if (t.players) j["players"] = *t.players;
  j["options"] = t.options;
  j["timer"] = t.timer.to_json();
  j["ranked"] = t.ranked;
}
void write(Json& j, const Seek& m) {
  write_terms(j, m.terms);
  if (m.terms.bots) j["bots"] = true;
  if (m.cpu_after) j["cpu_after"] = *m.cpu_after;
  j["level"] = to_string(m.level);
}
void write(Json& j, const Unseek& m) { j["seek"] = m.seek; }
void write(Json& j, const Challenge& m) {
  j["player"] = m.player;
  write_terms(j, m.terms);
}
void write(Json& j, const Accept& m) { j["challenge"] = m.challenge; }
void write(Json& j, const Decline& m) { j["challenge"] = m.challenge; }
void write(Json& j, const Cancel& m) { j["challenge"] = m.challenge; }
void write(Json& j, const Challenges& m) { j["open"] = m.open; }

}  // namespace

Json to_json(const Request& r) {
  Json j = {{"type", type_of(r.message)}};
  if (has_id(r.id)) j["id"] = id_json(r.id);
  std::visit([&](const auto& m) { write(j, m); }, r.message);
  return j;
}

}  // namespace tanbo_server::protocol
