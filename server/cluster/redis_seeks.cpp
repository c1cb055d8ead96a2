#include "server/cluster/redis_seeks.hpp"

#include <spdlog/spdlog.h>

#include "server/cluster/keys.hpp"
#include "server/cluster/messages.hpp"
#include "server/pairing/terms.hpp"

namespace tanbo_server::server::cluster {
namespace {

using Clock = std::chrono::steady_clock;

// KEYS: pools, terms, seekers, who; ARGV: pool id, terms JSON, seek, identity, seeker JSON.
// One seek per identity per pool.
constexpr const char* kAdd = R"(
if redis.call('HEXISTS', KEYS[4], ARGV[4]) == 1 then return 0 end
redis.call('HSET', KEYS[3], ARGV[3], ARGV[5])
redis.call('HSET', KEYS[4], ARGV[4], ARGV[3])
redis.call('SET', KEYS[2], ARGV[2])
redis.call('SADD', KEYS[1], ARGV[1])
return 1
)";

// KEYS: pools, terms, seekers, who; ARGV: pool id, then seek ids. Every one leaves, or none
// does; a pool left empty leaves the set.
constexpr const char* kTake = R"(
local who = {}
for i = 2, #ARGV do
  local s = redis.call('HGET', KEYS[3], ARGV[i])
  if not s then return 0 end
  who[#who + 1] = cjson.decode(s).identity
end
for i = 2, #ARGV do redis.call('HDEL', KEYS[3], ARGV[i]) end
for _, id in ipairs(who) do redis.call('HDEL', KEYS[4], id) end
if redis.call('HLEN', KEYS[3]) == 0 then
  redis.call('SREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2], KEYS[4])
end
return 1
)";

// KEYS: pools, terms, seekers, who; ARGV: pool id, seek, identity (empty: anyone's).
constexpr const char* kRemove = R"(
local s = redis.call('HGET', KEYS[3], ARGV[2])
if not s then return 0 end
local id = cjson.decode(s).identity
if ARGV[3] ~= '' and id ~= ARGV[3] then return 0 end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], id)
if redis.call('HLEN', KEYS[3]) == 0 then
  redis.call('SREM', KEYS[1], ARGV[1])
  redis.call('DEL', KEYS[2], KEYS[4])
end
return 1
)";

// KEYS: the lease; ARGV: node, ms. Renewed when held, taken when free.
constexpr const char* kLead = R"(
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
)";

std::vector<std::string> pool_keys(const std::string& pool) {
  return {std::string(keys::kPools), keys::pool(pool, "terms"), keys::pool(pool, "seekers"),
          keys::pool(pool, "who")};
}

}  // namespace

RedisSeeks::RedisSeeks(RedisAddress redis, std::string node, std::chrono::milliseconds lease,
                       RedisTimeouts timeouts)
    : redis_(std::move(redis), timeouts), node_(std::move(node)), lease_(lease) {}

bool RedisSeeks::add(const std::string& pool, const protocol::GameTerms& terms,
                     const pairing::Seeker& s) {
  auto r = scripts_.run(
      redis_, kAdd, pool_keys(pool),
      {pool, pairing::to_json(terms).dump(), s.seek, s.identity, pairing::to_json(s).dump()});
  if (r.is_error()) throw std::runtime_error("seek not stored: " + r.error());
  return r.integer() == 1;
}

bool RedisSeeks::remove(const std::string& pool, const std::string& seek,
                        const std::string& identity) {
  if (pool.empty()) return false;
  auto r = scripts_.run(redis_, kRemove, pool_keys(pool), {pool, seek, identity});
  return r.integer() == 1;
}

std::vector<pairing::Pool> RedisSeeks::pools() {
  std::vector<pairing::Pool> out;
  auto ids = redis_.command({"SMEMBERS", std::string(keys::kPools)});
  const auto* list = ids.array();
  if (!list || list->empty()) return out;
  std::vector<std::vector<std::string>> commands;
  std::vector<std::string> names;
  for (const auto& id : *list) {
    auto name = id.text();
    if (!name) continue;
    names.push_back(*name);
    commands.push_back({"GET", keys::pool(*name, "terms")});
    commands.push_back({"HGETALL", keys::pool(*name, "seekers")});
  }
  auto replies = redis_.pipeline(commands);
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto terms_text = replies[2 * i].text();
    const auto* fields = replies[2 * i + 1].array();
    if (!terms_text || !fields) continue;
    auto terms = pairing::terms_from_json(protocol::Json::parse(*terms_text, nullptr, false));
    if (!terms) continue;
    pairing::Pool p{names[i], *terms, {}};
    for (std::size_t f = 0; f + 1 < fields->size(); f += 2)
      if (auto text = (*fields)[f + 1].text())
        if (auto s = pairing::seeker_from_json(protocol::Json::parse(*text, nullptr, false)))
          p.seekers.push_back(std::move(*s));
    std::sort(p.seekers.begin(), p.seekers.end(),
              [](const auto& a, const auto& b) { return a.since_ms < b.since_ms; });
    out.push_back(std::move(p));
  }
  return out;
}

bool RedisSeeks::take(const std::string& pool, const std::vector<std::string>& seeks) {
  std::vector<std::string> args{pool};
  args.insert(args.end(), seeks.begin(), seeks.end());
  return scripts_.run(redis_, kTake, pool_keys(pool), args).integer() == 1;
}

bool RedisSeeks::lead(const std::string& pool) {
  auto r = scripts_.run(redis_, kLead, {keys::pool(pool, "lease")},
                        {node_, std::to_string(lease_.count())});
  return r.integer() == 1;
}

bool RedisSeeks::node_alive(const std::string& node) {
  if (node == node_) return true;
  if (Clock::now() - alive_read_ >= lease_ / 3) alive_.clear(), alive_read_ = Clock::now();
  auto it = alive_.find(node);
  if (it != alive_.end()) return it->second;
  auto r = redis_.command({"EXISTS", keys::node(node)});
  if (r.is_error()) return true;  // Redis away: nobody is dropped on that account
  return alive_[node] = r.integer() == 1;
}

void RedisSeeks::tell(const pairing::Seeker& s, const std::string& room, int seat) {
  const Paired paired{s.peer, s.seek, room, seat};
  auto r = redis_.command({"PUBLISH", keys::node_channel(s.node), payload(encode(paired))});
  if (r.is_error() || r.integer() == 0)
    spdlog::warn("pairing: node {} not told of room {} for seek {}", s.node, room, s.seek);
}

// Each identity's presence names this node for a lease; renewed every third of it, and at once
// for a newcomer. When the identity leaves, this node leaves its presence; the other nodes stay.
void RedisSeeks::present(const std::set<std::string>& identities) {
  const bool renew = Clock::now() - presence_renewed_ >= lease_ / 3;
  std::vector<std::string> named;
  for (const auto& id : identities)
    if (renew || !present_.contains(id)) named.push_back(keys::presence(id));
  if (renew) presence_renewed_ = Clock::now();
  if (!named.empty())
    scripts_.run(redis_, kPresent, named, {node_, std::to_string(lease_.count())});
  std::vector<std::vector<std::string>> gone;
  for (const auto& id : present_)
    if (!identities.contains(id)) gone.push_back({"ZREM", keys::presence(id), node_});
  if (!gone.empty()) redis_.pipeline(gone);
  present_ = identities;
}

void RedisSeeks::note_challenge(const std::string& id, bool open) {
  // An hour at most: a challenge nobody answers for that long is as good as gone.
  if (open)
    redis_.command({"SET", keys::challenge(id), node_, "PX", std::to_string(3600 * 1000)});
  else
    redis_.command({"DEL", keys::challenge(id)});
}

}  // namespace tanbo_server::server::cluster
