#include "server/cluster/scripts.hpp"

#include <algorithm>

namespace tanbo_server::server::cluster {

RedisReply Scripts::run(RedisConnection& redis, const char* script,
                        const std::vector<std::string>& keys,
                        const std::vector<std::string>& args) {
  auto it = std::find_if(loaded_.begin(), loaded_.end(),
                         [&](const Loaded& l) { return l.script == script; });
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (it == loaded_.end()) {
      auto sha = redis.command({"SCRIPT", "LOAD", script});
      if (!sha.text()) return sha;
      loaded_.push_back({script, *sha.text()});
      it = loaded_.end() - 1;
    }
    std::vector<std::string> argv{"EVALSHA", it->sha, std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    auto reply = redis.command(argv);
    if (!reply.error().starts_with("NOSCRIPT")) return reply;
    loaded_.erase(it);
    it = loaded_.end();
  }
  return {RedisError{"NOSCRIPT twice in a row"}};
}

}  // namespace tanbo_server::server::cluster
