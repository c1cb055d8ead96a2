#include "tests/server/support/protocol_client.hpp"

#include <filesystem>
#include <stdexcept>

namespace tanbo_server::server::test {

const protocol::SchemaSet& schemas() {
  static const protocol::SchemaSet set = [] {
    protocol::SchemaSet s;
    std::vector<std::string> problems;
    auto dir = std::filesystem::path(__FILE__).parent_path() / "../../../protocol/schema";
    if (!s.load_dir(dir.lexically_normal().string(), problems))
      throw std::runtime_error("schemas: " + (problems.empty() ? dir.string() : problems.front()));
    return s;
  }();
  return set;
}

std::string schema_problems(const json& msg) {
  if (!msg.is_object() || !msg.contains("type") || !msg["type"].is_string())
    return "no type: " + msg.dump();
  std::string name = "server-" + msg["type"].get<std::string>() + ".json";
  if (!schemas().has(name)) return "no schema " + name;
  auto v = schemas().validate(name, msg);
  std::string out;
  for (const auto& p : v) out += p + "; ";
  return out;
}

json ProtocolClient::next() {
  auto f = ws_.read();
  if (f.got == WsClient::Got::closed)
    throw std::runtime_error("closed by the server with " + std::to_string(ws_.close_code()));
  if (f.got != WsClient::Got::text) throw std::runtime_error("read failed: " + f.text);
  json msg = json::parse(f.text);
  // The games' schemas say version 2's names; a version 1 frame is held to the envelope alone,
  // as the frame of a game without a schema is (its names are docs/protocol-changelog.md's).
  json checked;
  if (old_version_ && msg.is_object() && msg.contains("game")) {
    checked = msg;
    checked["game"] = "version-1";
  }
  if (auto p = schema_problems(checked.is_null() ? msg : checked); !p.empty())
    throw std::runtime_error("schema: " + p + " in " + f.text);
  return msg;
}

void ProtocolClient::note_hello(const json& msg) {
  if (!msg.is_object() || msg.value("type", json()) != "hello") return;
  auto version = msg.find("protocol");
  old_version_ = version == msg.end() || version->is_null() || *version == 1;
}

json ProtocolClient::expect(std::string_view type) {
  json msg = next();
  if (msg.at("type") != type)
    throw std::runtime_error("expected " + std::string(type) + ", got " + msg.dump());
  return msg;
}

json ProtocolClient::next_but_states() {
  for (;;) {
    json m = next();
    if (m.at("type") != "state") return m;
  }
}

std::vector<json> ProtocolClient::heard() {
  send({{"type", "ping"}, {"id", "quiet"}});
  std::vector<json> out;
  for (;;) {
    json m = next();
    if (m.at("type") == "pong" && m.at("re") == "quiet") return out;
    if (m.at("type") != "state") out.push_back(std::move(m));
  }
}

std::uint16_t ProtocolClient::expect_close() {
  for (;;) {
    auto f = ws_.read();
    if (f.got == WsClient::Got::closed) return ws_.close_code();
    if (f.got == WsClient::Got::failed) throw std::runtime_error("read failed: " + f.text);
  }
}

json ProtocolClient::hello(const std::string& name, const std::string& token,
                           std::optional<int> protocol) {
  json h = {{"type", "hello"}, {"id", "h"}};
  if (protocol) h["protocol"] = *protocol;
  if (!name.empty()) h["name"] = name;
  if (!token.empty()) h["token"] = token;
  send(h);
  return expect("welcome");
}

}  // namespace tanbo_server::server::test
