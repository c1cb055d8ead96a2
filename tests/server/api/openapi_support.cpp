#include "tests/server/api/openapi_support.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

namespace tanbo_server::server::test::openapi {
namespace {

const std::string kComponents = "#/components/schemas/";
const std::string kProtocolSchemas = "schema/";
constexpr const char* kMethods[] = {"get", "head", "post", "put", "delete", "patch", "options"};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The file's $refs as the validator names documents: "#/components/schemas/X" is
// "openapi.json#/$defs/X", "schema/common.json#..." is "common.json#...".
json validator_refs(json node) {
  if (node.is_object()) {
    for (auto& [key, value] : node.items()) {
      if (key != "$ref" || !value.is_string()) {
        value = validator_refs(value);
        continue;
      }
      std::string ref = value;
      if (ref.starts_with(kComponents))
        value = "openapi.json#/$defs/" + ref.substr(kComponents.size());
      else if (ref.starts_with(kProtocolSchemas))
        value = ref.substr(kProtocolSchemas.size());
    }
  } else if (node.is_array()) {
    for (auto& item : node) item = validator_refs(item);
  }
  return node;
}

std::string schema_name(const Operation& op, const std::string& status) {
  return op.first + " " + op.second + " " + status;
}

// The media type of a Content-Type, without its parameters.
std::string media_of(const std::string& content_type) {
  return content_type.substr(0, content_type.find(';'));
}

// Follows a {"$ref": "#/components/..."} within `doc`.
const json& deref_in(const json& doc, const json& node) {
  if (!node.is_object() || !node.contains("$ref")) return node;
  const std::string ref = node["$ref"];
  return doc.at(json::json_pointer(ref.substr(1)));
}

Spec load() {
  Spec s;
  const std::string dir = std::string(TANBO_SOURCE_DIR) + "/protocol";
  s.text = read_text(dir + "/openapi.json");
  s.doc = json::parse(s.text);
  s.schemas.load_dir(dir + "/schema", s.problems);
  s.schemas.add("openapi.json", {{"$defs", validator_refs(s.doc["components"]["schemas"])}},
                s.problems);
  for (const auto& [path, item] : s.doc["paths"].items())
    for (const auto& [method, operation] : item.items())
      for (const auto& [status, response] : operation["responses"].items()) {
        const json& r = deref_in(s.doc, response);
        if (!r.contains("content")) continue;
        for (const auto& [media, content] : r["content"].items())
          s.schemas.add(schema_name({method, path}, status), validator_refs(content.at("schema")),
                        s.problems);
      }
  s.schemas.check_refs(s.problems);
  return s;
}

}  // namespace

const Spec& spec() {
  static const Spec s = load();
  return s;
}

std::set<Operation> operations() {
  std::set<Operation> out;
  for (const auto& [path, item] : spec().doc["paths"].items())
    for (const char* method : kMethods)
      if (item.contains(method)) out.emplace(method, path);
  return out;
}

const json& deref(const json& node) { return deref_in(spec().doc, node); }

const json* response_of(const Operation& op, unsigned status) {
  const json& responses = spec().doc["paths"][op.second][op.first]["responses"];
  auto it = responses.find(std::to_string(status));
  return it == responses.end() ? nullptr : &deref(*it);
}

std::string target_of(const Call& call) {
  const json& operation = spec().doc["paths"][call.path][call.method];
  std::string target = call.path, query;
  for (const auto& p : operation.value("parameters", json::array())) {
    const json& param = deref(p);
    const std::string name = param["name"], in = param["in"];
    std::string value;
    if (auto given = call.values.find(name); given != call.values.end())
      value = given->second;
    else if (in != "header" && param.contains("example"))
      value = param["example"].is_string() ? param["example"].get<std::string>()
                                           : param["example"].dump();
    if (in == "path") {
      INFO(call.method << " " << call.path << ": no value for {" << name << "}");
      REQUIRE(!value.empty());
      target.replace(target.find("{" + name + "}"), name.size() + 2, value);
    } else if (in == "query" && !value.empty()) {
      query += (query.empty() ? "?" : "&") + name + "=" + value;
    }
  }
  return target + query;
}

std::vector<std::string> body_problems(const Operation& op, unsigned status,
                                       const std::string& content_type, const std::string& body) {
  const json* response = response_of(op, status);
  if (!response) return {"status " + std::to_string(status) + " is not documented"};
  if (!response->contains("content"))
    return body.empty() ? std::vector<std::string>{}
                        : std::vector<std::string>{"a body where none is documented"};
  const json& content = (*response)["content"];
  if (!content.contains(content_type))
    return {"Content-Type " + content_type + " where the file says " + content.begin().key()};
  json value;
  if (media_of(content_type) == "application/json") {
    value = json::parse(body, nullptr, false);
    if (value.is_discarded()) return {"not JSON: " + body.substr(0, 200)};
  } else {
    value = body;
  }
  return spec().schemas.validate(schema_name(op, std::to_string(status)), value);
}

HttpReply check_call(std::uint16_t port, const Call& call) {
  const Operation op{call.method, call.path};
  const json& operation = spec().doc["paths"][call.path][call.method];
  REQUIRE(operation.is_object());
  Headers headers;
  for (const auto& p : operation.value("parameters", json::array()))
    if (const json& param = deref(p); param["in"] == "header" && call.values.count(param["name"]))
      headers.emplace_back(param["name"], call.values.at(param["name"]));
  if (!call.bearer.empty()) headers.emplace_back("Authorization", "Bearer " + call.bearer);
  std::string body;
  if (operation.contains("requestBody")) {
    json example = deref(operation["requestBody"])["content"]["application/json"]["example"];
    example.merge_patch(call.body);
    body = example.dump();
    headers.emplace_back("Content-Type", "application/json");
  }
  std::string method = call.method;
  for (char& c : method) c = char(std::toupper(static_cast<unsigned char>(c)));
  const std::string target = target_of(call);
  HttpReply reply = http_exchange(port, method, target, headers, body);
  INFO(method << " " << target << " " << body << "\n-> " << reply.status << " "
              << reply.content_type << " " << reply.body.substr(0, 2000));
  CHECK(reply.status == call.status);
  REQUIRE(response_of(op, reply.status) != nullptr);
  if (call.method == "head") {
    CHECK(reply.body.empty());
  } else {
    const std::string type = reply.body.empty() && reply.status == 304 ? "" : reply.content_type;
    auto problems = type.empty() ? body_problems(op, reply.status, "", "")
                                 : body_problems(op, reply.status, type, reply.body);
    INFO("problems:\n"
         << [&] {
              std::string all;
              for (const auto& p : problems) all += p + "\n";
              return all;
            }());
    CHECK(problems.empty());
  }
  return reply;
}

}  // namespace tanbo_server::server::test::openapi
