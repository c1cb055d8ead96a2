#pragma once
// A JSON Schema (draft 2020-12) validator for the subset protocol/schema/*.json uses. It claims
// these keywords, with their 2020-12 meaning: type, properties, required, additionalProperties,
// items (one schema for every item), enum, const, minimum, maximum, minLength, maxLength,
// minItems, maxItems, uniqueItems, oneOf, anyOf, not and $ref, the last applied together with
// the keywords beside it. A $ref is "<file>#<JSON pointer>", "#<JSON pointer>" or "<file>": the
// file is a name given to add() (load_dir uses file names), the pointer is written as a URI
// fragment ("~0", "~1",
// "%25"), and the target must be a schema too. $id plays no part in resolving. Annotations
// ($schema, $id, $defs, definitions, $comment, title, description, examples, default) are
// accepted and ignored, except that $ref points into $defs and definitions. Loading refuses any
// other keyword, so a schema never silently means less than it says. One difference from 2020-12,
// kept to agree with protocol::parse: "integer" is a number written without fraction or exponent
// (1.0 is not one). tests/protocol/schema_suite_test.cpp proves the claim: every case of the
// JSON-Schema-Test-Suite's draft 7 files of every claimed keyword passes, except those it lists
// with their reason (a keyword or $id resolution this validator does not have, a document the
// suite does not ship, a place where draft 7 and 2020-12 differ); docs/testing.md sums them up.
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/game.hpp"

namespace tanbo_server::protocol {

class SchemaSet {
 public:
  // Adds a schema under its file name; problems names unsupported keywords and bad values.
  bool add(const std::string& name, engine::Json schema, std::vector<std::string>& problems);
  // Loads every *.json of dir, then checks that every $ref resolves. True when problems is empty.
  bool load_dir(const std::string& dir, std::vector<std::string>& problems);
  bool check_refs(std::vector<std::string>& problems) const;

  // The keywords validate() applies, in the order of the comment above.
  static std::vector<std::string_view> keywords();

  std::vector<std::string> names() const;
  bool has(std::string_view name) const;
  // Empty when instance satisfies the schema; else one line per violation, with its JSON pointer.
  std::vector<std::string> validate(std::string_view name, const engine::Json& instance) const;

 private:
  struct Doc {
    std::string name;
    engine::Json schema;
  };
  struct Node;
  struct Compiled;
  struct Path;
  // Checks x against node n. With out, every violation is written there; without, the answer is
  // only whether x passes, and the first violation ends the check.
  static bool check(const Node& n, const engine::Json& x, const Path* path, int depth,
                    std::vector<std::string>* out);
  // The documents compiled for validate(): each schema object read once into its keywords and
  // each $ref resolved once, instead of on every value checked. Built on first use after the
  // last add(), under a lock, since one set may serve several threads; a copy starts without it.
  struct CompiledCache {
    CompiledCache() = default;
    CompiledCache(const CompiledCache&) {}
    CompiledCache& operator=(const CompiledCache&) {
      reset();
      return *this;
    }
    void reset() {
      std::lock_guard lock(mutex);
      compiled.reset();
    }
    std::mutex mutex;
    std::shared_ptr<const Compiled> compiled;
  };
  const Doc* doc(std::string_view name) const;
  // Resolves ref from within doc `from`; sets `in` to the document the target lives in.
  const engine::Json* resolve(const Doc& from, const std::string& ref, const Doc*& in) const;
  std::shared_ptr<const Compiled> compiled() const;
  const Node* compile(Compiled& c, const Doc& d, const engine::Json& s) const;

  std::vector<Doc> docs_;
  mutable CompiledCache cache_;
};

}  // namespace tanbo_server::protocol
