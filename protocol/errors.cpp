#include "protocol/errors.hpp"

namespace tanbo_server::protocol {

static_assert(
    [] {
      for (std::size_t i = 0; i < kErrors.size(); ++i)
        if (std::size_t(kErrors[i].code) != i) return false;
      return true;
    }(),
    "kErrors must list the codes in enum order");

// A refusal keeps its name on the wire: clients see the engine's code unchanged.
static_assert(
    [] {
      for (auto c : engine::kRefusalCodes)
        if (to_string(error_code(c)) != engine::to_string(c)) return false;
      return true;
    }(),
    "a refusal and its error must have the same name");

std::optional<ErrorCode> error_code_from(std::string_view name) {
  for (const auto& e : kErrors)
    if (e.name == name) return e.code;
  return std::nullopt;
}

engine::Json id_json(const Id& id) {
  if (auto i = std::get_if<std::int64_t>(&id)) return *i;
  if (auto s = std::get_if<std::string>(&id)) return *s;
  return nullptr;
}

}  // namespace tanbo_server::protocol
