#include <nlohmann/json.hpp>

#include "server/net/frame_handler.hpp"

namespace tanbo_server::server {

void UnknownTypeHandler::on_text(const std::shared_ptr<WsPeer>& peer, std::string_view text) {
  auto msg = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  nlohmann::json reply = {{"type", "error"}};
  if (msg.is_discarded() || !msg.is_object()) {
    reply["code"] = "bad_message";
    reply["message"] = "expected a JSON object";
  } else {
    reply["code"] = "unknown_type";
    reply["message"] = "no message types are served yet";
    if (auto it = msg.find("type"); it != msg.end()) reply["received"] = *it;
  }
  peer->send(std::make_shared<const std::string>(reply.dump()));
}

}  // namespace tanbo_server::server
