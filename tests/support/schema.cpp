#include "tests/support/schema.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <unordered_map>

namespace tanbo_server::protocol {

using engine::Json;

namespace {

constexpr std::array<std::string_view, 18> kKeywords = {
    "type",     "properties",  "required",  "additionalProperties",
    "items",    "enum",        "const",     "minimum",
    "maximum",  "minLength",   "maxLength", "minItems",
    "maxItems", "uniqueItems", "oneOf",     "anyOf",
    "not",      "$ref"};
// "definitions" is the older name of "$defs": a place for subschemas that $ref points into.
constexpr std::array<std::string_view, 9> kAnnotations = {"$schema",     "$id",      "$defs",
                                                          "definitions", "$comment", "title",
                                                          "description", "examples", "default"};
constexpr std::array<std::string_view, 7> kTypes = {"object", "array",   "string", "integer",
                                                    "number", "boolean", "null"};
constexpr int kMaxRefDepth = 64;  // a $ref cycle without progress ends here

bool listed(auto& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::size_t code_points(const std::string& s) {
  return std::size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

bool unique(const Json& list) {
  for (auto a = list.begin(); a != list.end(); ++a)
    if (std::find(std::next(a), list.end(), *a) != list.end()) return false;
  return true;
}

bool non_negative_integer(const Json& x) {
  if (x.is_number_unsigned()) return true;
  if (!x.is_number_float()) return false;
  double d = x.get<double>();
  return d >= 0 && std::floor(d) == d;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A $ref is "[document]#pointer" or "document" (the whole document): the document part is a
// name given to add(), empty for the referring document; the pointer is a JSON pointer written as
// a URI fragment, so "%25" stands for "%" (and "~0", "~1" for "~", "/", as in every JSON pointer).
struct Ref {
  std::string document;
  std::string pointer;
};

std::optional<Ref> split_ref(const std::string& ref) {
  if (ref.empty()) return std::nullopt;
  auto hash = ref.find('#');
  if (hash == std::string::npos) return Ref{ref, ""};
  Ref r{ref.substr(0, hash), ""};
  for (std::size_t i = hash + 1; i < ref.size(); ++i) {
    if (ref[i] != '%') {
      r.pointer += ref[i];
      continue;
    }
    int hi = i + 2 < ref.size() ? hex_digit(ref[i + 1]) : -1;
    int lo = hi >= 0 ? hex_digit(ref[i + 2]) : -1;
    if (lo < 0) return std::nullopt;
    r.pointer += char(hi * 16 + lo);
    i += 2;
  }
  if (!r.pointer.empty() && r.pointer[0] != '/') return std::nullopt;
  return r;
}

// Number as long double: exact for every 64-bit integer on the platforms we build for.
long double num(const Json& x) {
  if (x.is_number_unsigned()) return (long double)x.get<std::uint64_t>();
  if (x.is_number_integer()) return (long double)x.get<std::int64_t>();
  return (long double)x.get<double>();
}

// Structural checks of one schema object and, recursively, of its subschemas.
void lint(const Json& s, const std::string& where, std::vector<std::string>& problems) {
  if (s.is_boolean()) return;
  if (!s.is_object()) {
    problems.push_back(where + ": a schema is an object or a boolean");
    return;
  }
  for (const auto& [key, value] : s.items()) {
    std::string at = where + "/" + key;
    if (listed(kAnnotations, key)) {
      if (key == "$defs" || key == "definitions") {
        if (!value.is_object())
          problems.push_back(at + ": expected an object");
        else
          for (const auto& [name, sub] : value.items()) lint(sub, at + "/" + name, problems);
      }
      continue;
    }
    if (!listed(kKeywords, key)) {
      problems.push_back(at + ": keyword not supported by this validator");
      continue;
    }
    if (key == "type") {
      bool ok = value.is_string() ? listed(kTypes, value.get<std::string>()) : value.is_array();
      if (value.is_array())
        for (const auto& t : value)
          ok = ok && t.is_string() && listed(kTypes, t.get<std::string>());
      if (!ok) problems.push_back(at + ": unknown type");
      if (ok && !unique(value)) problems.push_back(at + ": a type is listed twice");
    } else if (key == "properties") {
      if (!value.is_object())
        problems.push_back(at + ": expected an object");
      else
        for (const auto& [name, sub] : value.items()) lint(sub, at + "/" + name, problems);
    } else if (key == "required") {
      bool ok = value.is_array() && std::all_of(value.begin(), value.end(),
                                                [](const Json& r) { return r.is_string(); });
      if (!ok) problems.push_back(at + ": expected an array of names");
      if (ok && !unique(value)) problems.push_back(at + ": a name is listed twice");
    } else if (key == "additionalProperties" || key == "items" || key == "not") {
      lint(value, at, problems);
    } else if (key == "enum") {
      if (!value.is_array() || value.empty())
        problems.push_back(at + ": expected a non-empty array");
    } else if (key == "oneOf" || key == "anyOf") {
      if (!value.is_array() || value.empty())
        problems.push_back(at + ": expected a non-empty array");
      else
        for (std::size_t i = 0; i < value.size(); ++i)
          lint(value[i], at + "/" + std::to_string(i), problems);
    } else if (key == "$ref") {
      if (!value.is_string() || !split_ref(value.get<std::string>()))
        problems.push_back(at + ": expected \"file\", \"[file]#\" or \"[file]#/pointer\"");
    } else if (key == "minimum" || key == "maximum") {
      if (!value.is_number()) problems.push_back(at + ": expected a number");
    } else if (key == "uniqueItems") {
      if (!value.is_boolean()) problems.push_back(at + ": expected true or false");
    } else if (key != "const" && !non_negative_integer(value)) {
      problems.push_back(at + ": expected a non-negative integer");
    }
  }
}

// Every $ref of a linted schema and of its subschemas (not of const, enum or annotation values).
void collect_refs(const Json& s, std::vector<std::string>& out) {
  if (!s.is_object()) return;
  for (const auto& [key, value] : s.items()) {
    if (key == "$ref")
      out.push_back(value.get<std::string>());
    else if (key == "$defs" || key == "definitions" || key == "properties" || key == "oneOf" ||
             key == "anyOf")
      for (const auto& sub : value) collect_refs(sub, out);
    else if (key == "additionalProperties" || key == "items" || key == "not")
      collect_refs(value, out);
  }
}

}  // namespace

bool SchemaSet::add(const std::string& name, Json schema, std::vector<std::string>& problems) {
  std::size_t before = problems.size();
  lint(schema, name + "#", problems);
  if (doc(name)) problems.push_back(name + ": loaded twice");
  if (problems.size() != before) return false;
  docs_.push_back({name, std::move(schema)});
  cache_.reset();
  return true;
}

bool SchemaSet::load_dir(const std::string& dir, std::vector<std::string>& problems) {
  std::size_t before = problems.size();
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec))
    if (e.path().extension() == ".json") files.push_back(e.path());
  if (ec) problems.push_back(dir + ": " + ec.message());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    Json j = Json::parse(text.str(), nullptr, false);
    if (j.is_discarded())
      problems.push_back(f.filename().string() + ": not valid JSON");
    else
      add(f.filename().string(), std::move(j), problems);
  }
  check_refs(problems);
  return problems.size() == before;
}

bool SchemaSet::check_refs(std::vector<std::string>& problems) const {
  std::size_t before = problems.size();
  for (const auto& d : docs_) {
    std::vector<std::string> refs;
    collect_refs(d.schema, refs);
    for (const auto& r : refs) {
      const Doc* in = nullptr;
      const Json* target = resolve(d, r, in);
      if (!target)
        problems.push_back(d.name + ": $ref \"" + r + "\" does not resolve");
      else  // a $ref may point anywhere in a document: what it points to must be a schema too
        lint(*target, d.name + ": $ref \"" + r + "\"", problems);
    }
  }
  return problems.size() == before;
}

std::vector<std::string_view> SchemaSet::keywords() { return {kKeywords.begin(), kKeywords.end()}; }

std::vector<std::string> SchemaSet::names() const {
  std::vector<std::string> out;
  for (const auto& d : docs_) out.push_back(d.name);
  return out;
}

bool SchemaSet::has(std::string_view name) const { return doc(name) != nullptr; }

const SchemaSet::Doc* SchemaSet::doc(std::string_view name) const {
  for (const auto& d : docs_)
    if (d.name == name) return &d;
  return nullptr;
}

const Json* SchemaSet::resolve(const Doc& from, const std::string& ref, const Doc*& in) const {
  auto r = split_ref(ref);
  if (!r) return nullptr;
  in = r->document.empty() ? &from : doc(r->document);
  if (!in) return nullptr;
  try {
    Json::json_pointer p(r->pointer);
    return in->schema.contains(p) ? &in->schema.at(p) : nullptr;
  } catch (const Json::exception&) {
    return nullptr;
  }
}

// One schema object read into its keywords once, so that check() does not look them up by name
// at every value.
struct SchemaSet::Node {
  bool never = false;                     // the schema `false`
  const std::string* ref_text = nullptr;  // the $ref, if any
  const Node* ref = nullptr;              // what it names; null when it does not resolve
  const Json* type = nullptr;
  unsigned types = 0;  // the bits of type_bits() the type keyword allows
  const Json* constant = nullptr;
  const Json* enum_values = nullptr;  // enum
  const Json *minimum = nullptr, *maximum = nullptr;
  const Json *min_length = nullptr, *max_length = nullptr;
  const Json *min_items = nullptr, *max_items = nullptr;
  bool unique_items = false;
  const Node* items = nullptr;
  const Json* required = nullptr;
  std::vector<std::pair<std::string_view, const Node*>> properties;  // in key order
  // The properties whose schema is a const (a message's or an event's type, a frame's game): a
  // check that only answers yes or no looks at them first, so that a branch of anyOf or oneOf
  // meant for another kind of object fails at once.
  std::vector<std::pair<std::string, const Node*>> discriminators;
  const Node* additional = nullptr;
  const Node* negated = nullptr;  // not
  bool has_any_of = false, has_one_of = false;
  std::vector<const Node*> any_of, one_of;

  const Node* property(std::string_view key) const {
    auto it = std::lower_bound(properties.begin(), properties.end(), key,
                               [](const auto& p, std::string_view k) { return p.first < k; });
    return it != properties.end() && it->first == key ? it->second : nullptr;
  }
};

struct SchemaSet::Compiled {
  std::deque<Node> nodes;  // a deque: a node's address outlives later insertions
  std::unordered_map<const Json*, const Node*> by_schema;
  std::vector<std::pair<std::string_view, const Node*>> roots;  // per document, in docs_ order
};

namespace {

constexpr unsigned kObject = 1, kArray = 2, kString = 4, kInteger = 8, kNumber = 16, kBoolean = 32,
                   kNull = 64;

unsigned type_bit(std::string_view t) {
  if (t == "object") return kObject;
  if (t == "array") return kArray;
  if (t == "string") return kString;
  if (t == "integer") return kInteger;
  if (t == "number") return kNumber;
  if (t == "boolean") return kBoolean;
  return t == "null" ? kNull : 0;
}

// The types a value has: an integer is a number too.
unsigned type_bits(const Json& x) {
  if (x.is_object()) return kObject;
  if (x.is_array()) return kArray;
  if (x.is_string()) return kString;
  if (x.is_number_integer()) return kInteger | kNumber;
  if (x.is_number()) return kNumber;
  if (x.is_boolean()) return kBoolean;
  return kNull;
}

}  // namespace

// Where a value sits, kept as links on the stack and written out only for a violation.
struct SchemaSet::Path {
  const Path* up = nullptr;
  const std::string* key = nullptr;
  std::size_t index = 0;

  static void write(const Path* p, std::string& out) {
    if (!p) return;
    write(p->up, out);
    out += '/';
    if (p->key)
      out += *p->key;
    else
      out += std::to_string(p->index);
  }
};

// Reads the keywords of s, a schema of document d; a schema met again is the node it became.
const SchemaSet::Node* SchemaSet::compile(Compiled& c, const Doc& d, const Json& s) const {
  if (auto known = c.by_schema.find(&s); known != c.by_schema.end()) return known->second;
  Node& n = c.nodes.emplace_back();
  c.by_schema.emplace(&s, &n);
  if (s.is_boolean()) n.never = !s.get<bool>();
  if (!s.is_object()) return &n;
  auto branches = [&](const Json& list, std::vector<const Node*>& out) {
    if (list.is_array())
      for (const auto& one : list) out.push_back(compile(c, d, one));
  };
  for (const auto& [key, value] : s.items()) {
    if (key == "$ref") {
      if (!value.is_string()) continue;
      n.ref_text = &value.get_ref<const std::string&>();
      const Doc* in = nullptr;
      if (const Json* target = resolve(d, *n.ref_text, in)) n.ref = compile(c, *in, *target);
    } else if (key == "type") {
      n.type = &value;
      if (value.is_string()) n.types = type_bit(value.get_ref<const std::string&>());
      if (value.is_array())
        for (const auto& t : value)
          if (t.is_string()) n.types |= type_bit(t.get_ref<const std::string&>());
    } else if (key == "const") {
      n.constant = &value;
    } else if (key == "enum") {
      if (value.is_array()) n.enum_values = &value;
    } else if (key == "minimum" || key == "maximum") {
      if (value.is_number()) (key == "minimum" ? n.minimum : n.maximum) = &value;
    } else if (key == "minLength" || key == "maxLength") {
      if (value.is_number()) (key == "minLength" ? n.min_length : n.max_length) = &value;
    } else if (key == "minItems" || key == "maxItems") {
      if (value.is_number()) (key == "minItems" ? n.min_items : n.max_items) = &value;
    } else if (key == "uniqueItems") {
      n.unique_items = value.get<bool>();
    } else if (key == "items") {
      n.items = compile(c, d, value);
    } else if (key == "required") {
      if (value.is_array()) n.required = &value;
    } else if (key == "properties") {
      if (value.is_object())
        for (const auto& [name, sub] : value.items()) {
          n.properties.emplace_back(name, compile(c, d, sub));
          if (sub.is_object() && sub.contains("const"))
            n.discriminators.emplace_back(name, n.properties.back().second);
        }
    } else if (key == "additionalProperties") {
      n.additional = compile(c, d, value);
    } else if (key == "not") {
      n.negated = compile(c, d, value);
    } else if (key == "anyOf") {
      n.has_any_of = true;
      branches(value, n.any_of);
    } else if (key == "oneOf") {
      n.has_one_of = true;
      branches(value, n.one_of);
    }
  }
  return &n;
}

std::shared_ptr<const SchemaSet::Compiled> SchemaSet::compiled() const {
  std::lock_guard lock(cache_.mutex);
  if (!cache_.compiled) {
    auto c = std::make_shared<Compiled>();
    for (const auto& d : docs_) c->roots.emplace_back(d.name, compile(*c, d, d.schema));
    cache_.compiled = std::move(c);
  }
  return cache_.compiled;
}

std::vector<std::string> SchemaSet::validate(std::string_view name, const Json& instance) const {
  std::vector<std::string> out;
  auto c = compiled();
  auto root = std::find_if(c->roots.begin(), c->roots.end(),
                           [&](const auto& r) { return r.first == name; });
  if (root == c->roots.end())
    out.push_back("no schema named " + std::string(name));
  else
    check(*root->second, instance, nullptr, 0, &out);
  return out;
}

bool SchemaSet::check(const Node& n, const Json& x, const Path* path, int depth,
                      std::vector<std::string>* out) {
  bool ok = true;
  // Notes a violation; true when the check ends there, as one that only answers yes or no does.
  auto violated = [&](auto&& what) {
    ok = false;
    if (!out) return true;
    std::string line;
    Path::write(path, line);
    if (line.empty()) line = "/";
    out->push_back(line + ": " + what());
    return false;
  };
  // Checks a part of x; false when the check ends there.
  auto sub = [&](const Node& s, const Json& y, const Path* at) {
    if (check(s, y, at, depth + 1, out)) return true;
    ok = false;
    return out != nullptr;
  };
  if (n.never && violated([] { return std::string("no value is allowed here"); })) return false;
  if (depth > kMaxRefDepth) {
    violated([] { return std::string("schema nesting too deep"); });
    return false;
  }
  if (n.ref_text) {
    if (!n.ref) {
      violated([&] { return "$ref " + *n.ref_text + " does not resolve"; });
      return false;
    }
    if (!sub(*n.ref, x, path)) return false;
  }
  if (n.type && !(type_bits(x) & n.types)) {
    violated([&] { return "expected type " + n.type->dump() + ", got " + x.type_name(); });
    return false;
  }
  if (n.constant && x != *n.constant && violated([&] { return "expected " + n.constant->dump(); }))
    return false;
  if (n.enum_values &&
      std::find(n.enum_values->begin(), n.enum_values->end(), x) == n.enum_values->end() &&
      violated([&] { return "expected one of " + n.enum_values->dump(); }))
    return false;
  if (x.is_number()) {
    if (n.minimum && num(x) < num(*n.minimum) &&
        violated([&] { return "below " + n.minimum->dump(); }))
      return false;
    if (n.maximum && num(x) > num(*n.maximum) &&
        violated([&] { return "above " + n.maximum->dump(); }))
      return false;
  }
  if (x.is_string() && (n.min_length || n.max_length)) {
    std::size_t length = code_points(x.get_ref<const std::string&>());
    if (n.min_length && num(*n.min_length) > length &&
        violated([&] { return "shorter than " + n.min_length->dump(); }))
      return false;
    if (n.max_length && num(*n.max_length) < length &&
        violated([&] { return "longer than " + n.max_length->dump(); }))
      return false;
  }
  if (x.is_array()) {
    if (n.min_items && num(*n.min_items) > x.size() &&
        violated([&] { return "fewer items than " + n.min_items->dump(); }))
      return false;
    if (n.max_items && num(*n.max_items) < x.size() &&
        violated([&] { return "more items than " + n.max_items->dump(); }))
      return false;
    if (n.unique_items)
      for (std::size_t i = 1; i < x.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (x[i] == x[j] && violated([&] {
                return "items " + std::to_string(j) + " and " + std::to_string(i) + " are equal";
              }))
            return false;
    if (n.items)
      for (std::size_t i = 0; i < x.size(); ++i) {
        Path at{path, nullptr, i};
        if (!sub(*n.items, x[i], &at)) return false;
      }
  }
  if (x.is_object()) {
    if (!out)
      for (const auto& [key, s] : n.discriminators)
        if (auto at = x.find(key); at != x.end() && !check(*s, *at, path, depth + 1, nullptr))
          return false;
    if (n.required)
      for (const auto& k : *n.required)
        if (k.is_string() && !x.contains(k.get_ref<const std::string&>()) &&
            violated([&] { return "missing \"" + k.get<std::string>() + "\""; }))
          return false;
    for (const auto& [key, value] : x.items()) {
      const Node* s = n.property(key);
      if (!s) s = n.additional;
      if (!s) continue;
      Path at{path, &key, 0};
      if (!sub(*s, value, &at)) return false;
    }
  }
  // A branch is only asked whether it matches: its own violations are not kept. Counting stops
  // at `enough` matches: anyOf needs one, oneOf counts them all for its message.
  auto matches = [&](const std::vector<const Node*>& list, int enough) {
    int m = 0;
    for (const auto* branch : list)
      if ((m += check(*branch, x, path, depth + 1, nullptr)) == enough) break;
    return m;
  };
  if (n.has_any_of && matches(n.any_of, 1) == 0 &&
      violated([] { return std::string("matches no anyOf branch"); }))
    return false;
  if (n.negated && check(*n.negated, x, path, depth + 1, nullptr) &&
      violated([] { return std::string("matches the schema of not"); }))
    return false;
  if (n.has_one_of) {
    int m = matches(n.one_of, int(n.one_of.size()));
    if (m != 1 &&
        violated([&] { return "matches " + std::to_string(m) + " oneOf branches, not exactly 1"; }))
      return false;
  }
  return ok;
}

}  // namespace tanbo_server::protocol
