#include "engine/core/json_sink.hpp"

#include <charconv>
#include <cstring>

#include "engine/core/json_text.hpp"

namespace tanbo_server::engine {

Json& JsonTree::put(Json v) {
  if (open_.empty()) return root_ = std::move(v);
  Json& into = *open_.back();
  if (into.is_array()) {
    into.push_back(std::move(v));
    return into.back();
  }
  return into.get_ref<Json::object_t&>()
      .insert_or_assign(std::string(key_), std::move(v))
      .first->second;
}

void JsonText::key(std::string_view k) {
  quoted(k);
  put(':');
  comma_ = false;
}

void JsonText::number(std::int64_t n) {
  char* p = room(24);  // any 64-bit integer, its sign included
  done(std::to_chars(p, p + 24, n).ptr);
}

void JsonText::unsigned_number(std::uint64_t n) {
  char* p = room(24);
  done(std::to_chars(p, p + 24, n).ptr);
}

void JsonText::serialized(std::string_view json_value) {
  separate_in_string();
  out_ += json_value;
}

void JsonText::boolean(bool b) { literal(b ? "true" : "false"); }

void JsonText::null() { literal("null"); }

void JsonText::string(std::string_view s) { quoted(s); }

void JsonText::quoted(std::string_view s) {
  if (s.size() <= kShort && json_text::plain(s)) {  // a name from the game's code: always
    char* p = room(s.size() + 2);
    *p++ = '"';
    if (!s.empty()) std::memcpy(p, s.data(), s.size());  // an empty view's data may be null
    p += s.size();
    *p++ = '"';
    done(p);
  } else {
    separate_in_string();
    json_text::append_string(out_, s);
  }
}

void JsonText::literal(std::string_view word) {
  char* p = room(word.size());
  std::memcpy(p, word.data(), word.size());
  done(p + word.size());
}

void JsonText::json(const Json& j) {
  separate_in_string();
  json_text::append(out_, j);
}

Json state_tree(const Game& g) {
  JsonTree tree;
  g.write_state(tree);
  return tree.take();
}

std::string state_text(const Game& g, Names names) {
  std::string out;
  out.reserve(512);  // most states: one allocation, not one per doubling
  {
    JsonText sink(out);
    sink.use_names(names);
    g.write_state(sink);
  }  // its last block written into `out`
  return out;
}

Json action_tree(const Game& g, Action a) {
  JsonTree tree;
  g.write_action(a, tree);
  return tree.take();
}

void Game::write_state(JsonSink& out) const { out.json(state_json()); }

void Game::write_action(Action a, JsonSink& out) const { out.json(action_json(a)); }

}  // namespace tanbo_server::engine
