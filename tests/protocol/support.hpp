#pragma once
// Shared test helpers: the schema set loaded once, and typed access to parse results.
#include <catch2/catch.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/client.hpp"
#include "tests/support/schema.hpp"

namespace tanbo_server::protocol::test {

inline const SchemaSet& schemas() {
  static const SchemaSet set = [] {
    SchemaSet s;
    std::vector<std::string> problems;
    s.load_dir(TANBO_PROTOCOL_SCHEMA_DIR, problems);
    return s;
  }();
  return set;
}

// The message of a frame that must parse; fails the test otherwise.
template <class M>
M parsed_as(std::string_view frame) {
  Parsed p = parse(frame);
  if (auto e = std::get_if<Error>(&p))
    FAIL("refused: " << to_string(e->code) << ": " << e->message);
  const auto& req = std::get<Request>(p);
  if (!std::holds_alternative<M>(req.message)) FAIL("parsed as " << type_of(req.message));
  return std::get<M>(req.message);
}

// The error of a frame that must be refused; fails the test otherwise.
inline Error refused(std::string_view frame) {
  Parsed p = parse(frame);
  if (auto r = std::get_if<Request>(&p)) FAIL("accepted as " << type_of(r->message));
  return std::get<Error>(p);
}

}  // namespace tanbo_server::protocol::test
