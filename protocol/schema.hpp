#pragma once
// A JSON Schema validator for the subset protocol/schema/*.json uses: type, properties, required,
// additionalProperties, items, enum, const, minimum, maximum, minLength, maxLength, minItems,
// maxItems, oneOf, anyOf, and $ref to "#/$defs/..." or "<file>.json#/$defs/...". Annotations
// ($schema, $id, $defs, $comment, title, description, examples, default) are accepted and ignored.
// Loading refuses any other keyword, so a schema never silently means less than it says.
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo::protocol {

class SchemaSet {
 public:
  // Adds a schema under its file name; problems names unsupported keywords and bad values.
  bool add(const std::string& name, engine::Json schema, std::vector<std::string>& problems);
  // Loads every *.json of dir, then checks that every $ref resolves. True when problems is empty.
  bool load_dir(const std::string& dir, std::vector<std::string>& problems);
  bool check_refs(std::vector<std::string>& problems) const;

  std::vector<std::string> names() const;
  bool has(std::string_view name) const;
  // Empty when instance satisfies the schema; else one line per violation, with its JSON pointer.
  std::vector<std::string> validate(std::string_view name, const engine::Json& instance) const;

 private:
  struct Doc {
    std::string name;
    engine::Json schema;
  };
  const Doc* doc(std::string_view name) const;
  // Resolves ref from within doc `from`; sets `in` to the document the target lives in.
  const engine::Json* resolve(const Doc& from, const std::string& ref, const Doc*& in) const;
  void check(const Doc& d, const engine::Json& s, const engine::Json& x, const std::string& path,
             int depth, std::vector<std::string>& out) const;

  std::vector<Doc> docs_;
};

}  // namespace tanbo::protocol
