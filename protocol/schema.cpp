#include "protocol/schema.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace tanbo::protocol {

using engine::Json;

namespace {

constexpr std::array<std::string_view, 16> kKeywords = {
    "type",     "properties", "required",  "additionalProperties",
    "items",    "enum",       "const",     "minimum",
    "maximum",  "minLength",  "maxLength", "minItems",
    "maxItems", "oneOf",      "anyOf",     "$ref"};
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

bool has_type(const Json& x, std::string_view t) {
  if (t == "object") return x.is_object();
  if (t == "array") return x.is_array();
  if (t == "string") return x.is_string();
  if (t == "integer") return x.is_number_integer();
  if (t == "number") return x.is_number();
  if (t == "boolean") return x.is_boolean();
  return x.is_null();
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
    } else if (key == "additionalProperties" || key == "items") {
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
    else if (key == "additionalProperties" || key == "items")
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

std::vector<std::string> SchemaSet::validate(std::string_view name, const Json& instance) const {
  std::vector<std::string> out;
  const Doc* d = doc(name);
  if (!d)
    out.push_back("no schema named " + std::string(name));
  else
    check(*d, d->schema, instance, "", 0, out);
  return out;
}

void SchemaSet::check(const Doc& d, const Json& s, const Json& x, const std::string& path,
                      int depth, std::vector<std::string>& out) const {
  auto fail = [&](const std::string& what) {
    out.push_back((path.empty() ? "/" : path) + ": " + what);
  };
  if (s.is_boolean()) {
    if (!s.get<bool>()) fail("no value is allowed here");
    return;
  }
  if (depth > kMaxRefDepth) return fail("schema nesting too deep");
  if (auto r = s.find("$ref"); r != s.end()) {
    const Doc* in = nullptr;
    const Json* target = resolve(d, r->get<std::string>(), in);
    if (!target) return fail("$ref " + r->get<std::string>() + " does not resolve");
    check(*in, *target, x, path, depth + 1, out);
  }
  if (auto t = s.find("type"); t != s.end()) {
    bool ok = false;
    if (t->is_string())
      ok = has_type(x, t->get<std::string>());
    else
      for (const auto& one : *t) ok = ok || has_type(x, one.get<std::string>());
    if (!ok) return fail("expected type " + t->dump() + ", got " + x.type_name());
  }
  if (auto c = s.find("const"); c != s.end() && x != *c) fail("expected " + c->dump());
  if (auto e = s.find("enum"); e != s.end() && std::find(e->begin(), e->end(), x) == e->end())
    fail("expected one of " + e->dump());
  if (x.is_number()) {
    if (auto m = s.find("minimum"); m != s.end() && num(x) < num(*m)) fail("below " + m->dump());
    if (auto m = s.find("maximum"); m != s.end() && num(x) > num(*m)) fail("above " + m->dump());
  }
  if (x.is_string()) {
    std::size_t n = code_points(x.get_ref<const std::string&>());
    if (auto m = s.find("minLength"); m != s.end() && num(*m) > n)
      fail("shorter than " + m->dump());
    if (auto m = s.find("maxLength"); m != s.end() && num(*m) < n) fail("longer than " + m->dump());
  }
  if (x.is_array()) {
    if (auto m = s.find("minItems"); m != s.end() && num(*m) > x.size())
      fail("fewer items than " + m->dump());
    if (auto m = s.find("maxItems"); m != s.end() && num(*m) < x.size())
      fail("more items than " + m->dump());
    if (auto items = s.find("items"); items != s.end())
      for (std::size_t i = 0; i < x.size(); ++i)
        check(d, *items, x[i], path + "/" + std::to_string(i), depth + 1, out);
  }
  if (x.is_object()) {
    if (auto req = s.find("required"); req != s.end())
      for (const auto& k : *req)
        if (!x.contains(k.get<std::string>())) fail("missing \"" + k.get<std::string>() + "\"");
    auto props = s.find("properties");
    auto extra = s.find("additionalProperties");
    for (const auto& [key, value] : x.items()) {
      std::string at = path + "/" + key;
      if (props != s.end() && props->contains(key))
        check(d, props->at(key), value, at, depth + 1, out);
      else if (extra != s.end())
        check(d, *extra, value, at, depth + 1, out);
    }
  }
  auto count = [&](const Json& list) {
    int n = 0;
    for (const auto& sub : list) {
      std::vector<std::string> ignored;
      check(d, sub, x, path, depth + 1, ignored);
      n += ignored.empty();
    }
    return n;
  };
  if (auto any = s.find("anyOf"); any != s.end() && count(*any) == 0)
    fail("matches no anyOf branch");
  if (auto one = s.find("oneOf"); one != s.end()) {
    int n = count(*one);
    if (n != 1) fail("matches " + std::to_string(n) + " oneOf branches, not exactly 1");
  }
}

}  // namespace tanbo::protocol
