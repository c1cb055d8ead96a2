#include "server/rooms/lobby.hpp"

#include <algorithm>
#include <boost/asio/post.hpp>

#include "server/metrics/metrics.hpp"
#include "server/rooms/room.hpp"

namespace tanbo_server::server {

namespace net = boost::asio;

Lobby::Lobby(RoomsExecutor ex, std::chrono::milliseconds push_interval)
    : strand_(net::make_strand(ex)), timer_(strand_), interval_(push_interval) {}

void Lobby::add(std::shared_ptr<Room> room) {
  std::lock_guard lock(mutex_);
  auto id = room->id();
  auto owner = room->owner();
  auto address = room->address();
  tell(id, Change::added);
  rooms_[id] = Entry{std::move(room), std::nullopt, std::move(owner), std::move(address)};
}

std::string Lobby::fresh_id() const {
  std::string id;
  do id = std::string("r-").append(random_hex(6));
  while (find(id));
  return id;
}

std::shared_ptr<Room> Lobby::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second.room;
}

void Lobby::publish(protocol::RoomSummary summary, const std::string& owner) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(summary.room);
  if (it == rooms_.end()) return;  // removed meanwhile
  it->second.owner = owner;
  metrics::room_moved(summary.game,
                      it->second.summary ? std::optional(it->second.summary->status) : std::nullopt,
                      summary.status);
  it->second.summary = std::move(summary);
  relisted(it->first);
}

bool Lobby::turned(const std::string& room, std::optional<engine::Seat> to_move,
                   std::optional<std::int64_t> deadline_ms) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(room);
  if (it == rooms_.end() || !it->second.summary) return false;
  it->second.summary->to_move = to_move;
  it->second.summary->deadline_ms = deadline_ms;
  relisted(room);
  return true;
}

void Lobby::relisted(const std::string& room) {
  if (!watchers_.empty()) changed_.insert(room);  // watchers start from a `rooms` list
  tell(room, Change::listed);
  schedule();
}

void Lobby::remove(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (auto it = rooms_.find(id); it != rooms_.end() && it->second.summary)
    metrics::room_moved(it->second.summary->game, it->second.summary->status, std::nullopt);
  if (rooms_.erase(id) == 0) return;
  tell(id, Change::removed);
  changed_.erase(id);
  if (!watchers_.empty()) removed_.insert(id);
  schedule();
}

std::vector<protocol::RoomSummary> Lobby::list(const std::optional<std::string>& game) const {
  std::vector<protocol::RoomSummary> out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.summary && (!game || e.summary->game == *game)) out.push_back(*e.summary);
  return out;
}

protocol::Json Lobby::entry(const protocol::RoomSummary& s) const {
  auto j = protocol::room_json(s);
  if (!node_.empty()) j["node"] = node_;
  return j;
}

void Lobby::tell(const std::string& room, Change change) const {
  if (observer_) observer_(room, change);
}

protocol::Json Lobby::listing(const std::optional<std::string>& game) const {
  auto out = protocol::Json::array();
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.summary && (!game || e.summary->game == *game)) out.push_back(entry(*e.summary));
  for (const auto& [id, j] : remote_)
    if (!game || j.value("game", "") == *game) out.push_back(j);
  return out;
}

void Lobby::set_node(std::string node) {
  std::lock_guard lock(mutex_);
  node_ = std::move(node);
}

protocol::Json Lobby::local_listing() const {
  auto out = protocol::Json::array();
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.summary) out.push_back(entry(*e.summary));
  return out;
}

void Lobby::set_remote(std::map<std::string, std::vector<protocol::Json>> by_node) {
  std::map<std::string, protocol::Json> now;
  std::lock_guard lock(mutex_);
  for (auto& [node, entries] : by_node)
    for (auto& j : entries) {
      if (!j.is_object() || !j.contains("room") || !j["room"].is_string()) continue;
      auto id = j["room"].get<std::string>();
      if (!rooms_.contains(id)) now[id] = std::move(j);
    }
  const bool watched = !watchers_.empty();
  for (const auto& [id, j] : now)
    if (auto it = remote_.find(id); watched && (it == remote_.end() || it->second != j))
      remote_changed_.insert(id);
  for (const auto& [id, j] : remote_)
    if (watched && !now.contains(id)) {
      remote_changed_.erase(id);
      removed_.insert(id);
    }
  remote_ = std::move(now);
  if (!remote_changed_.empty() || !removed_.empty()) schedule();
}

std::string Lobby::node_of(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = remote_.find(id);
  return it == remote_.end() ? std::string() : it->second.value("node", std::string());
}

void Lobby::observe(std::function<void(const std::string& room, Change)> observer) {
  std::lock_guard lock(mutex_);
  observer_ = std::move(observer);
}

int Lobby::open_rooms(const std::string& owner) const {
  int n = 0;
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.owner == owner && (!e.summary || e.summary->status != protocol::RoomStatus::finished))
      ++n;
  return n;
}

int Lobby::open_rooms_from(const std::string& address) const {
  int n = 0;
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.address == address && (!e.summary || e.summary->status != protocol::RoomStatus::finished))
      ++n;
  return n;
}

std::vector<protocol::SeatRef> Lobby::seats_of(const std::string& identity) const {
  std::vector<protocol::SeatRef> out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_) {
    if (!e.summary || e.summary->status == protocol::RoomStatus::finished) continue;
    for (const auto& s : e.summary->seats)
      if (s.player && s.player->id == identity) out.push_back({id, s.seat});
  }
  // The other nodes' rooms too, as their listings show them: any node serves any room.
  for (const auto& [id, j] : remote_) {
    if (j.value("status", "") == "finished" || !j.contains("seats") || !j["seats"].is_array())
      continue;
    for (const auto& s : j["seats"])
      if (s.is_object() && s.contains("player") && s["player"].is_object() &&
          s["player"].value("id", "") == identity && s.value("seat", -1) >= 0)
        out.push_back({id, s.value("seat", 0)});
  }
  return out;
}

protocol::Json Lobby::games_of(const std::string& identity, bool waiting) const {
  protocol::Json out = protocol::Json::array();
  // Entries as the listing shows them, this node's and the others' alike.
  auto add = [&](const protocol::Json& j) {
    if (j.value("status", "") == "finished" || !j.contains("seats") || !j["seats"].is_array())
      return;
    for (const auto& s : j["seats"]) {
      if (!s.is_object() || !s.contains("player") || !s["player"].is_object() ||
          s["player"].value("id", "") != identity || s.value("seat", -1) < 0)
        continue;
      const bool turn = j.contains("to_move") && j["to_move"] == s["seat"];
      if (waiting && !turn) continue;
      protocol::Json g = {{"room", j.value("room", "")},
                          {"game", j.value("game", "")},
                          {"seat", s["seat"]},
                          {"status", j.value("status", "")},
                          {"timer", j.value("timer", protocol::Json("none"))},
                          {"your_turn", turn}};
      if (turn && j.contains("deadline")) g["deadline"] = j["deadline"];
      if (j.contains("node")) g["node"] = j["node"];
      out.push_back(std::move(g));
    }
  };
  std::lock_guard lock(mutex_);
  // This node's rooms as summaries: only those the identity sits in become JSON.
  for (const auto& [id, e] : rooms_) {
    if (!e.summary || e.summary->status == protocol::RoomStatus::finished) continue;
    if (std::any_of(e.summary->seats.begin(), e.summary->seats.end(),
                    [&](const auto& s) { return s.player && s.player->id == identity; }))
      add(entry(*e.summary));
  }
  for (const auto& [id, j] : remote_) add(j);
  return out;
}

std::vector<std::shared_ptr<Room>> Lobby::rooms() const {
  std::vector<std::shared_ptr<Room>> out;
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_) out.push_back(e.room);
  return out;
}

void Lobby::set_pools(protocol::Json pools) {
  std::lock_guard lock(mutex_);
  if (pools == pools_) return;
  pools_ = std::move(pools);
  if (!watchers_.empty()) pools_changed_ = true;
  schedule();
}

protocol::Json Lobby::pools(const std::optional<std::string>& game) const {
  std::lock_guard lock(mutex_);
  if (!game) return pools_;
  auto out = protocol::Json::array();
  for (const auto& p : pools_)
    if (p.value("game", "") == *game) out.push_back(p);
  return out;
}

std::size_t Lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

void Lobby::clear() {
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_)
    if (e.summary) metrics::room_moved(e.summary->game, e.summary->status, std::nullopt);
  rooms_.clear();
  watchers_.clear();
}

void Lobby::watch(std::shared_ptr<WsPeer> peer) {
  std::lock_guard lock(mutex_);
  watchers_[peer->id()] = peer;
}

void Lobby::unwatch(std::uint64_t peer_id) {
  std::lock_guard lock(mutex_);
  watchers_.erase(peer_id);
}

void Lobby::schedule() {
  if (scheduled_ || watchers_.empty()) return;
  scheduled_ = true;
  auto at = std::max(std::chrono::steady_clock::now(), last_push_ + interval_);
  net::post(strand_, [self = shared_from_this(), at] {
    self->timer_.expires_at(at);
    self->timer_.async_wait([self](boost::system::error_code ec) {
      if (!ec) self->push();
    });
  });
}

void Lobby::push() {
  auto changed = protocol::Json::array();
  protocol::Json pools;  // null: unchanged
  std::vector<std::string> removed;
  std::vector<std::shared_ptr<WsPeer>> to;
  {
    std::lock_guard lock(mutex_);
    scheduled_ = false;
    last_push_ = std::chrono::steady_clock::now();
    for (const auto& id : changed_)
      if (auto it = rooms_.find(id); it != rooms_.end() && it->second.summary)
        changed.push_back(entry(*it->second.summary));
    for (const auto& id : remote_changed_)
      if (auto it = remote_.find(id); it != remote_.end()) changed.push_back(it->second);
    removed.assign(removed_.begin(), removed_.end());
    changed_.clear();
    remote_changed_.clear();
    removed_.clear();
    if (std::exchange(pools_changed_, false)) pools = pools_;
    for (const auto& [id, p] : watchers_)
      if (auto live = p.lock()) to.push_back(std::move(live));
  }
  if (changed.empty() && removed.empty() && pools.is_null()) return;
  auto frame = protocol::share(
      protocol::lobby(std::move(changed), removed, pools.is_null() ? nullptr : &pools));
  for (const auto& p : to) p->send(frame);
}

}  // namespace tanbo_server::server
