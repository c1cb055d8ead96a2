#pragma once
// What the accounts tests share: a real server's accounts asked as a client would.
#include <catch2/catch.hpp>

#include <string>

#include "tests/server/recovery/server_process.hpp"

namespace tanbo_server::server::test {

inline constexpr const char* kPassword = "correct horse battery";

// The answer to `msg`, past any state a room pushes meanwhile.
inline nlohmann::json ask(ProtocolClient& c, nlohmann::json msg) {
  msg["id"] = "q";
  c.send(msg);
  return c.next_but_states();
}

inline nlohmann::json claim(ProtocolClient& c, const std::string& username,
                            const std::string& password = kPassword) {
  return ask(c, {{"type", "claim"}, {"username", username}, {"password", password}});
}

// A fresh connection that says hello with a login (and the token the device holds, if any): its
// answer (welcome or error).
inline nlohmann::json login(ProtocolClient& c, const std::string& username,
                            const std::string& password = kPassword,
                            const std::string& device = "") {
  nlohmann::json login{{"username", username}, {"password", password}};
  if (!device.empty()) login["token"] = device;
  c.send({{"type", "hello"}, {"id", "h"}, {"login", login}});
  return c.next();
}

// POST /api/login from `from` (an X-Forwarded-For address), with the device's token as its
// bearer if it holds one.
inline HttpReply http_login(std::uint16_t port, const std::string& username,
                            const std::string& password = kPassword, const std::string& from = "",
                            const std::string& device = "") {
  return http_request(port, "POST", "/api/login", device.empty() ? "" : "Bearer " + device,
                      nlohmann::json{{"username", username}, {"password", password}}.dump(), from);
}

// Ana, a guest who claimed the username "ana".
inline Guest ana_account(std::uint16_t port) {
  auto ana = guest(port, "Ana");
  REQUIRE(claim(*ana.client, "ana").at("type") == "ok");
  return ana;
}

inline bool refused_token(std::uint16_t port, const std::string& token) {
  ProtocolClient c(port);
  c.send({{"type", "hello"}, {"id", "h"}, {"token", token}});
  nlohmann::json m = c.next();
  return m.at("type") == "error" && m.at("code") == "bad_token";
}

}  // namespace tanbo_server::server::test
