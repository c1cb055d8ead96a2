#include "engine/core/json_sink.hpp"

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
