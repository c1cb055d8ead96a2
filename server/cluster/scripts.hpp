#pragma once
// Lua scripts run with EVALSHA: each is one atomic step on Redis' side, so a check and the write
// it allows can never be split by another node's write.
#include <string>
#include <vector>

#include "server/cluster/redis.hpp"

namespace tanbo_server::server::cluster {

// KEYS: room owner keys; ARGV: node, lease ms. Extends the keys the node owns, takes back the
// ones that expired meanwhile (nobody claimed them: a Redis restart, a long stall) and returns
// {key, owner, ...} for each key another node holds.
inline constexpr const char* kRenewRooms = R"(
local lost = {}
for _, key in ipairs(KEYS) do
  local owner = redis.call('GET', key)
  if owner == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
  elseif owner then
    lost[#lost + 1] = key
    lost[#lost + 1] = owner
  else
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
  end
end
return lost
)";

// KEYS: one key; ARGV: node. Deletes the key only while it still names the node.
inline constexpr const char* kReleaseIfOwner = R"(
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
)";

// KEYS: presence keys; ARGV: node, lease ms. Names the node in each identity's presence until a
// lease from now, by Redis' clock (the nodes' clocks may disagree), and drops the nodes whose
// lease ran out (a node that died there). The key lives as long as its longest lease.
inline constexpr const char* kPresent = R"(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lease, ARGV[1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  redis.call('PEXPIRE', key, lease)
end
return #KEYS
)";

// KEYS: one presence key. The nodes whose lease in it still runs.
inline constexpr const char* kPresentNodes = R"(
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
)";

// Runs `script` by its SHA1, loading it first when Redis does not know it (the first call, or
// after a Redis restart emptied its script cache).
class Scripts {
 public:
  RedisReply run(RedisConnection& redis, const char* script, const std::vector<std::string>& keys,
                 const std::vector<std::string>& args);

 private:
  struct Loaded {
    const char* script;
    std::string sha;
  };
  std::vector<Loaded> loaded_;
};

}  // namespace tanbo_server::server::cluster
