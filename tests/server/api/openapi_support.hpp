#pragma once
// protocol/openapi.json as the tests read it: its operations, the documented example request of
// each, and the check of an answer against the documented response (its status, its media type,
// its body against the response's schema). The file's schemas are checked by the tests' JSON
// Schema validator (tests/support/schema.hpp), with the protocol's message schemas they refer to;
// the validator refuses any keyword it does not apply, so the file's schemas use no other.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/server/support/clients.hpp"
#include "tests/support/schema.hpp"

namespace tanbo_server::server::test::openapi {

using nlohmann::json;

// "get /api/games/{id}": an operation as the file names it, the method in lower case.
using Operation = std::pair<std::string, std::string>;

struct Spec {
  std::string text;  // the file's bytes
  json doc;
  protocol::SchemaSet schemas;        // "<method> <path> <status>": each response's body
  std::vector<std::string> problems;  // what did not load
};

// Loaded once.
const Spec& spec();

// Every operation of the file.
std::set<Operation> operations();

// Follows a {"$ref": "#/components/..."} within the file.
const json& deref(const json& node);

// The documented answer of `op` for `status` (null when there is none).
const json* response_of(const Operation& op, unsigned status);

// One call of an operation with its documented example: every path and query parameter takes
// the value of `values` by its name, else its example (a query parameter given "" is left out);
// a header parameter is sent only when `values` names it. The body is the documented example with
// the members of `body` put over it.
struct Call {
  std::string method, path;
  std::map<std::string, std::string> values = {};
  json body = json::object();
  std::string bearer = {};  // the Authorization: Bearer token, if any
  unsigned status = 200;    // the answer expected, one the file documents
};

// Sends the call; fails the test when the answer is not the one documented: another status, an
// undocumented status, another media type, a body that fails the response's schema (HEAD: any
// body). Returns the answer.
HttpReply check_call(std::uint16_t port, const Call& call);

// The target a call sends, its parameters put in.
std::string target_of(const Call& call);

// Every problem of `body` against the documented schema of (op, status, media type).
std::vector<std::string> body_problems(const Operation& op, unsigned status,
                                       const std::string& content_type, const std::string& body);

}  // namespace tanbo_server::server::test::openapi
