// mcts: UCT over the engine, open loop. A tree node stands for a sequence of choices from the
// root, not for a state: every iteration copies the root game and replays the choices down the
// tree, with the game's draws coming from the bot's own FastRng, so a chance game (tanbo's bag)
// is searched over sampled draws and never over the room's (R1). The legal list of a node is
// therefore read again at each visit: its children are the actions seen so far, and only those
// legal in this sample compete. Forced decisions (R4) are applied on the way, never a node.
//
// Each node sums, per seat, the rewards of the playouts through it (rewards_from_places: 1 win,
// 1/2 a shared place, 0 a loss, pairwise for 3-4 players); the seat deciding at a node picks the
// child with the best mean for itself plus the UCB1 term. The answer is a root action that wins on
// the spot if there is one, else the most visited root child, which is the best so far whenever
// the deadline cuts the search.
#include <algorithm>
#include <cmath>

#include "engine/bots/evaluation.hpp"
#include "engine/bots/levels.hpp"

namespace tanbo_server::engine::bots {
namespace {

struct Node {
  std::uint32_t action = 0;  // the choice that leads here from the parent
  std::int32_t first_child = -1;
  std::int32_t next_sibling = -1;
  std::uint32_t visits = 0;
  std::array<float, kMaxSeats> reward{};  // summed over the visits, per seat
};

class Search {
 public:
  Search(const Game& root, Seat seat, const BotConfig& config, FastRng& rng)
      : root_(root),
        seat_(seat),
        config_(config),
        rng_(rng),
        players_(std::min(root.players(), kMaxSeats)),
        depth_(config.playout_depth.value_or(playout_depth_for(root))),
        evaluate_(evaluation_for(root)),
        reset_(reset_for(root)),
        game_(root.clone()) {
    nodes_.reserve(std::min<std::size_t>(config.playouts + 1, 1 << 16));
    nodes_.emplace_back();
    path_.reserve(256);
    legal_.reserve(256);
    sorted_.reserve(256);
    tried_.reserve(256);
  }

  Action run(const Deadline& deadline, const ActionList& root_legal) {
    // A decisive move is taken without searching: playouts would only confirm it, and a search cut
    // short might miss it (in a chance game, winning in the draw sampled).
    for (Action a : root_legal) {
      restart();
      game_->apply(a, rng_, nullptr);
      if (game_->status() == Status::finished && won(game_->result().places)) return a;
    }
    for (std::uint32_t i = 0; i < config_.playouts && !deadline.passed(); ++i) iterate();
    // The most visited root child; a search cut before its first playout answers at random.
    const Node* best = nullptr;
    for (std::int32_t c = nodes_[0].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const Node& n = nodes_[c];
      if (!best || n.visits > best->visits ||
          (n.visits == best->visits && n.reward[seat_] > best->reward[seat_]))
        best = &n;
    }
    if (best) return {best->action};
    return root_legal[rng_.below(std::uint32_t(root_legal.size()))];
  }

 private:
  void restart() {
    if (reset_)
      reset_(*game_, root_);
    else
      game_ = root_.clone();
  }

  // Alone in first place.
  bool won(const std::vector<int>& places) const {
    for (int s = 0; s < int(places.size()); ++s)
      if (places[s] == 1 && s != seat_) return false;
    return places[seat_] == 1;
  }

  void iterate() {
    restart();
    path_.clear();
    path_.push_back(0);
    std::int32_t node = 0;
    while (settle()) {
      const Seat mover = game_->pending().seat;
      const std::int32_t next = select_or_expand(node, mover);
      if (next < 0) break;
      const bool expanded = nodes_[next].visits == 0;
      game_->apply({nodes_[next].action}, rng_, nullptr);
      path_.push_back(next);
      node = next;
      if (expanded) break;
    }
    Rewards r{};
    playout(r);
    for (std::int32_t n : path_) {
      Node& x = nodes_[n];
      ++x.visits;
      for (int s = 0; s < players_; ++s) x.reward[s] += float(r[s]);
    }
  }

  // R4: applies forced decisions; true when a real choice is pending, its list in legal_.
  bool settle() {
    while (game_->status() != Status::finished) {
      game_->legal_actions(legal_);
      if (legal_.size() != 1) return true;
      game_->apply(legal_[0], rng_, nullptr);
    }
    return false;
  }

  // The child of `node` to descend to: a new one for an action of legal_ not tried yet, else the
  // UCB1 best for `mover` among the children legal now; -1 when there is none (node cap).
  std::int32_t select_or_expand(std::int32_t node, Seat mover) {
    sorted_.clear();
    for (Action a : legal_) sorted_.push_back(a.code);
    std::sort(sorted_.begin(), sorted_.end());
    tried_.assign(sorted_.size(), 0);
    std::size_t tried = 0;
    std::int32_t best = -1;
    double best_value = 0;
    const double log_n = std::log(double(std::max<std::uint32_t>(nodes_[node].visits, 1)));
    for (std::int32_t c = nodes_[node].first_child; c >= 0; c = nodes_[c].next_sibling) {
      const Node& child = nodes_[c];
      auto it = std::lower_bound(sorted_.begin(), sorted_.end(), child.action);
      if (it == sorted_.end() || *it != child.action) continue;  // not legal in this sample
      tried_[it - sorted_.begin()] = 1, ++tried;
      const double v = child.reward[mover] / child.visits +
                       config_.exploration * std::sqrt(log_n / child.visits);
      if (best < 0 || v > best_value) best = c, best_value = v;
    }
    if (tried == sorted_.size() || nodes_.size() >= kMaxNodes) return best;
    std::uint32_t k = rng_.below(std::uint32_t(sorted_.size() - tried));
    std::size_t i = 0;
    for (;; ++i)
      if (!tried_[i] && k-- == 0) break;
    const auto id = std::int32_t(nodes_.size());
    Node& fresh = nodes_.emplace_back();
    fresh.action = sorted_[i];
    fresh.next_sibling = nodes_[node].first_child;
    nodes_[node].first_child = id;
    return id;
  }

  // Random legal actions to the end, to the evaluation horizon, or to the playout limit.
  void playout(Rewards& r) {
    std::uint32_t choices = 0, steps = 0;
    while (game_->status() != Status::finished) {
      if (steps++ >= config_.playout_limit) return r.fill(0.5);
      game_->legal_actions(legal_);
      if (legal_.size() == 1) {
        game_->apply(legal_[0], rng_, nullptr);
        continue;
      }
      if (depth_ && choices++ >= depth_) return judge(r);
      game_->apply(legal_[rng_.below(std::uint32_t(legal_.size()))], rng_, nullptr);
    }
    rewards_from_places(game_->result().places, r);
  }

  // At the horizon, whoever the evaluation puts ahead is scored as if placed there.
  void judge(Rewards& r) {
    std::vector<int>& places = places_;
    std::array<double, kMaxSeats> value{};
    for (int s = 0; s < players_; ++s) value[s] = evaluate_(*game_, s);
    places.assign(std::size_t(players_), 1);
    for (int s = 0; s < players_; ++s)
      for (int o = 0; o < players_; ++o) places[s] += value[o] > value[s];
    rewards_from_places(places, r);
  }

  static constexpr std::size_t kMaxNodes = 1 << 21;

  const Game& root_;
  const Seat seat_;
  const BotConfig& config_;
  FastRng& rng_;
  const int players_;
  const std::uint32_t depth_;
  const Evaluation evaluate_;
  const Reset reset_;
  std::unique_ptr<Game> game_;
  std::vector<Node> nodes_;
  std::vector<std::int32_t> path_;
  ActionList legal_;
  std::vector<std::uint32_t> sorted_;
  std::vector<char> tried_;
  std::vector<int> places_;
};

class MctsBot final : public Bot {
 public:
  explicit MctsBot(const BotConfig& config) : config_(config) {
    config_.playouts = std::max<std::uint32_t>(config_.playouts, 1);
  }
  Level level() const override { return Level::mcts; }
  Action choose(const Game& game, Seat seat, const Deadline& deadline,
                FastRng& rng) const override {
    ActionList legal;
    legal_for(game, seat, legal);
    if (legal.size() == 1) return legal[0];
    Deadline until = deadline;
    if (config_.budget.count() > 0) until.at = std::min(until.at, Clock::now() + config_.budget);
    return Search(game, seat, config_, rng).run(until, legal);
  }

 private:
  BotConfig config_;
};

}  // namespace

std::unique_ptr<Bot> make_mcts(const BotConfig& config) {
  return std::make_unique<MctsBot>(config);
}

}  // namespace tanbo_server::engine::bots
