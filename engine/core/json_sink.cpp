#include "engine/core/json_sink.hpp"

#include "engine/core/json_text.hpp"

namespace tanbo::engine {

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
  separate();
  if (json_text::plain(k)) {  // a name from the game's code: always
    out_ += '"';
    out_ += k;
    out_ += "\":";
  } else {
    json_text::append_string(out_, k);
    out_ += ':';
  }
  comma_ = false;
}

void JsonText::number(std::int64_t n) {
  separate();
  json_text::append_int(out_, n);
}

void JsonText::boolean(bool b) {
  separate();
  json_text::append_bool(out_, b);
}

void JsonText::null() {
  separate();
  out_ += "null";
}

void JsonText::string(std::string_view s) {
  separate();
  json_text::append_string(out_, s);
}

void JsonText::json(const Json& j) {
  separate();
  json_text::append(out_, j);
}

Json state_tree(const Game& g) {
  JsonTree tree;
  g.write_state(tree);
  return tree.take();
}

Json action_tree(const Game& g, Action a) {
  JsonTree tree;
  g.write_action(a, tree);
  return tree.take();
}

void Game::write_state(JsonSink& out) const { out.json(state_json()); }

void Game::write_action(Action a, JsonSink& out) const { out.json(action_json(a)); }

}  // namespace tanbo::engine
