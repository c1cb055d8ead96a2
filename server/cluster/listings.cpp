#include "server/cluster/listings.hpp"

#include "server/cluster/keys.hpp"

namespace tanbo_server::server::cluster {

bool write_listing(RedisConnection& redis, const std::string& node, const engine::Json& listing,
                   std::chrono::milliseconds lease) {
  auto set = redis.command(
      {"SET", keys::lobby(node), listing.dump(), "PX", std::to_string(lease.count())});
  if (set.is_error()) return false;
  return !redis.command({"PUBLISH", std::string(keys::kLobbyChannel), node}).is_error();
}

namespace {

// Every key that starts with `prefix`. SCAN, not KEYS: it never blocks Redis for long however
// many keys it holds.
std::optional<std::vector<std::string>> scan(RedisConnection& redis, std::string_view prefix) {
  std::vector<std::string> found;
  std::string cursor = "0";
  do {
    auto r = redis.command({"SCAN", cursor, "MATCH", std::string(prefix) + "*", "COUNT", "1000"});
    const auto* a = r.array();
    if (!a || a->size() != 2 || !(*a)[0].text() || !(*a)[1].array()) return std::nullopt;
    cursor = *(*a)[0].text();
    for (const auto& k : *(*a)[1].array())
      if (auto key = k.text()) found.push_back(*key);
  } while (cursor != "0");
  return found;
}

}  // namespace

std::optional<std::vector<std::string>> live_nodes(RedisConnection& redis) {
  const std::string prefix = keys::node("");
  auto found = scan(redis, prefix);
  if (found)
    for (auto& key : *found) key.erase(0, prefix.size());
  return found;
}

std::optional<std::map<std::string, std::vector<engine::Json>>> read_listings(
    RedisConnection& redis, const std::string& self) {
  auto scanned = scan(redis, keys::kLobbyPrefix);
  if (!scanned) return std::nullopt;
  std::vector<std::string> found;
  for (auto& key : *scanned)
    if (key != keys::lobby(self)) found.push_back(std::move(key));

  std::map<std::string, std::vector<engine::Json>> out;
  if (found.empty()) return out;
  std::vector<std::string> mget{"MGET"};
  mget.insert(mget.end(), found.begin(), found.end());
  auto r = redis.command(mget);
  const auto* values = r.array();
  if (!values || values->size() != found.size()) return std::nullopt;
  for (std::size_t i = 0; i < found.size(); ++i) {
    auto text = (*values)[i].text();
    if (!text) continue;  // expired between SCAN and MGET
    auto& entries = out[found[i].substr(keys::kLobbyPrefix.size())];
    auto listing = engine::Json::parse(*text, nullptr, false);
    if (!listing.is_array()) continue;
    for (auto& e : listing) entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace tanbo_server::server::cluster
