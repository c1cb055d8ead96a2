// Target (1): the bytes of a client text frame. parse() must answer a Request or an Error and
// never throw; a Request must survive its own round trip (to_json, then parse); an Error must make
// a valid `error` message; the client schemas must accept exactly the frames parse accepts; and
// serialize() writes any well-formed frame's JSON as nlohmann's dump does; the plain reader
// reads a frame as nlohmann does, or declines it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/client.hpp"
#include "protocol/json_read.hpp"
#include "protocol/limits.hpp"
#include "protocol/server.hpp"
#include "tests/fuzz/check.hpp"
#include "tests/protocol/same_json.hpp"
#include "tests/support/schema.hpp"

namespace {

using namespace tanbo_server::protocol;

const SchemaSet& schemas() {
  static const SchemaSet set = [] {
    SchemaSet s;
    std::vector<std::string> problems;
    if (!s.load_dir(TANBO_PROTOCOL_SCHEMA_DIR, problems))
      tanbo_server::fuzz::broken("the schemas load", problems.empty() ? "" : problems.front());
    return s;
  }();
  return set;
}

std::string lines(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += s + "\n";
  return out;
}

// Duplicate CPU seats are the one rule the schemas cannot say (docs/protocol.md).
bool duplicate_cpu_seats(const Json& j) {
  auto cpu = j.find("cpu");
  if (cpu == j.end() || !cpu->is_array()) return false;
  std::vector<Json> seen;
  for (const auto& e : *cpu) {
    if (!e.is_object() || !e.contains("seat")) continue;
    for (const auto& s : seen)
      if (s == e["seat"]) return true;
    seen.push_back(e["seat"]);
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view frame(reinterpret_cast<const char*>(data), size);
  Parsed parsed = parse(frame);

  if (auto* req = std::get_if<Request>(&parsed)) {
    std::string again = serialize(to_json(*req));
    Parsed back = parse(again);
    auto* req2 = std::get_if<Request>(&back);
    TANBO_FUZZ_CHECK(req2 && *req2 == *req, again);
  } else {
    const auto& e = std::get<Error>(parsed);
    TANBO_FUZZ_CHECK(e.code != ErrorCode::internal, e.message);
    Json msg = Json::parse(serialize(error(e)), nullptr, false);
    TANBO_FUZZ_CHECK(!msg.is_discarded(), e.message);
    auto problems = schemas().validate("server-error.json", msg);
    TANBO_FUZZ_CHECK(problems.empty(), lines(problems) + msg.dump());
  }

  // The schemas and parse agree on every well-formed JSON object naming a client type.
  if (size > kMaxFrameBytes) return 0;
  Json j = Json::parse(frame, nullptr, false);
  // parse() reads the plain subset itself: exactly as nlohmann does, or not at all.
  if (Json fast; json_read::read_plain(frame, fast))
    TANBO_FUZZ_CHECK(!j.is_discarded() && tanbo_server::protocol::test::same_json(fast, j),
                     std::string(frame));
  if (j.is_discarded()) return 0;
  // serialize() writes the text itself; nlohmann's dump is what it must equal.
  TANBO_FUZZ_CHECK(serialize(j) == j.dump(-1, ' ', false, Json::error_handler_t::replace),
                   serialize(j));
  if (!j.is_object()) return 0;
  auto type = j.find("type");
  if (type == j.end() || !type->is_string()) return 0;
  std::string file = "client-" + type->get<std::string>() + ".json";
  if (!schemas().has(file)) {
    TANBO_FUZZ_CHECK(!std::holds_alternative<Request>(parsed), file);
    return 0;
  }
  bool too_deep =
      std::holds_alternative<Error>(parsed) && std::get<Error>(parsed).code == ErrorCode::bad_json;
  // The name rule and the chat rule (Unicode categories, NFC) are beyond the schemas, which
  // give only the type and length: their own codes are the parser's alone.
  const bool rule = std::holds_alternative<Error>(parsed) &&
                    (std::get<Error>(parsed).code == ErrorCode::bad_name ||
                     std::get<Error>(parsed).code == ErrorCode::bad_text);
  if (too_deep || rule || duplicate_cpu_seats(j)) return 0;
  auto problems = schemas().validate(file, j);
  bool accepted = std::holds_alternative<Request>(parsed);
  TANBO_FUZZ_CHECK(accepted == problems.empty(),
                   std::string(accepted ? "parse accepted, the schema refused:\n"
                                        : "parse refused (" + std::get<Error>(parsed).message +
                                              "), the schema accepted:\n") +
                       lines(problems) + j.dump());
  return 0;
}
