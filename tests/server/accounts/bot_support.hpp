#pragma once
// What the bot accounts' tests share: a bot made over the protocol, its access token made over
// HTTP, and a two-player game played to its end by the seats' own connections.
#include <catch2/catch.hpp>

#include <string>

#include "tests/server/accounts/support.hpp"

namespace tanbo_server::server::test {

// An account claimed by a guest named `name`; with `bot`, marked as a bot.
inline Guest account(std::uint16_t port, const std::string& name, bool bot) {
  auto g = guest(port, name);
  REQUIRE(claim(*g.client, name).at("type") == "ok");
  if (bot) REQUIRE(ask(*g.client, {{"type", "become_bot"}}).at("type") == "ok");
  return g;
}

// A new access token of the session `token`'s account.
inline std::string access_token(std::uint16_t port, const std::string& token,
                                const std::string& name = "test bot") {
  auto r = http_request(port, "POST", "/api/me/tokens", "Bearer " + token,
                        nlohmann::json{{"name", name}}.dump());
  REQUIRE(r.status == 200);
  return nlohmann::json::parse(r.body).at("token");
}

// hello with an access token: the welcome or the error.
inline nlohmann::json hello_access(ProtocolClient& c, const std::string& access_token) {
  c.send({{"type", "hello"}, {"id", "h"}, {"access_token", access_token}});
  return c.next();
}

inline nlohmann::json next_state(ProtocolClient& c) {
  for (;;)
    if (auto m = c.next(); m.at("type") == "state") return m;
}

// Plays `room` to its end: both seats read the states up to the same version; the one given
// `legal` answers with its first action. The finished state.
inline nlohmann::json play_out(ProtocolClient& a, ProtocolClient& b, const std::string& room) {
  nlohmann::json sa = next_state(a), sb = next_state(b);
  for (int step = 0; step < 5000; ++step) {
    while (sa.at("version") < sb.at("version")) sa = next_state(a);
    while (sb.at("version") < sa.at("version")) sb = next_state(b);
    if (sa.at("status") == "finished") return sa;
    if (!sa.contains("legal") && !sb.contains("legal")) {  // not started yet
      sa = next_state(a);
      continue;
    }
    const bool first = sa.contains("legal");
    const nlohmann::json& st = first ? sa : sb;
    (first ? a : b)
        .send({{"type", "act"},
               {"room", room},
               {"version", st.at("version")},
               {"action", st.at("legal").at(0)}});
    sa = next_state(a);
    sb = next_state(b);
  }
  FAIL("the game did not end");
  return {};
}

}  // namespace tanbo_server::server::test
