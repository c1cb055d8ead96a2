#pragma once
// A protocol-speaking test client: sends JSON requests, reads server messages and checks each
// against its schema (protocol/schema/server-<type>.json). Any violation, close or timeout throws,
// so a test fails with the offending frame in its message.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>
#include <vector>

#include "protocol/limits.hpp"
#include "tests/server/support/clients.hpp"
#include "tests/support/schema.hpp"

namespace tanbo_server::server::test {

using nlohmann::json;

// The protocol's schemas, loaded once.
const protocol::SchemaSet& schemas();
// Empty when `msg` satisfies the schema its type names.
std::string schema_problems(const json& msg);

class ProtocolClient {
 public:
  explicit ProtocolClient(std::uint16_t port, std::string forwarded_for = {})
      : ws_(port, "/ws", std::move(forwarded_for)) {}
  // With these header fields in the upgrade request (a browser's User-Agent, an Origin...).
  ProtocolClient(std::uint16_t port, const Headers& headers) : ws_(port, headers) {}

  void send(const json& msg) {
    note_hello(msg);
    ws_.send(msg.dump());
  }
  void send_raw(std::string_view text) {
    note_hello(json::parse(text, nullptr, false));
    ws_.send(text);
  }
  void send_binary(std::string_view bytes) { ws_.send_binary(bytes); }
  // The next message, schema-checked.
  json next();
  // The next message, which must have this type.
  json expect(std::string_view type);
  // Reads until a close frame; returns its code (throws on a text frame left unread for 5 s).
  std::uint16_t expect_close();
  // hello, then the welcome. `protocol`: the version named; nullopt names none (version 1).
  json hello(const std::string& name = "", const std::string& token = "",
             std::optional<int> protocol = protocol::kProtocolVersion);
  // The next message that is not a state (rooms send states at any time).
  json next_but_states();
  // What but states reaches this connection before the answer to a ping: what was pending.
  std::vector<json> heard();
  bool hears_nothing() { return heard().empty(); }
  WsClient& ws() { return ws_; }

 private:
  // A hello sets the version the connection's frames are checked in.
  void note_hello(const json& msg);

  WsClient ws_;
  bool old_version_ = false;  // its hello named version 1, or none
};

// A connection that said hello, with what its welcome gave it.
struct Guest {
  std::unique_ptr<ProtocolClient> client;
  std::string token, id, name;
};

// A new guest, or with `token` an identity coming back.
inline Guest guest(std::uint16_t port, const std::string& name, const std::string& token = "") {
  Guest g;
  g.client = std::make_unique<ProtocolClient>(port);
  auto w = g.client->hello(name, token);
  g.token = w.at("token");
  g.id = w.at("player").at("id");
  g.name = w.at("player").at("name");
  return g;
}

}  // namespace tanbo_server::server::test
