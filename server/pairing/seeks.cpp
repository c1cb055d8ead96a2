#include "server/pairing/seeks.hpp"

#include <algorithm>

namespace tanbo_server::server::pairing {

protocol::Json to_json(const Seeker& s) {
  return {{"seek", s.seek},
          {"identity", s.identity},
          {"name", s.name},
          {"rating", s.rating},
          {"since", s.since_ms},
          {"cpu_after", s.cpu_after_s},
          {"level", protocol::to_string(s.level)},
          {"node", s.node},
          {"peer", s.peer}};
}

std::optional<Seeker> seeker_from_json(const protocol::Json& j) {
  try {
    Seeker s;
    s.seek = j.at("seek").get<std::string>();
    s.identity = j.at("identity").get<std::string>();
    s.name = j.at("name").get<std::string>();
    s.rating = j.at("rating").get<double>();
    s.since_ms = j.at("since").get<std::int64_t>();
    s.cpu_after_s = j.at("cpu_after").get<int>();
    const auto level = j.at("level").get<std::string>();
    for (auto l :
         {protocol::CpuLevel::random, protocol::CpuLevel::greedy, protocol::CpuLevel::mcts})
      if (protocol::to_string(l) == level) s.level = l;
    s.node = j.at("node").get<std::string>();
    s.peer = j.at("peer").get<std::uint64_t>();
    return s;
  } catch (const protocol::Json::exception&) {
    return std::nullopt;
  }
}

std::string pool_of_seek(const std::string& seek) {
  // "s-" + 12 hex digits + "-" + ...
  if (seek.size() < 16 || !seek.starts_with("s-") || seek[14] != '-') return {};
  return seek.substr(2, 12);
}

bool MemorySeeks::add(const std::string& pool, const protocol::GameTerms& terms, const Seeker& s) {
  auto& p = pools_[pool];
  if (p.id.empty()) p = Pool{pool, terms, {}};
  if (std::any_of(p.seekers.begin(), p.seekers.end(),
                  [&](const Seeker& x) { return x.identity == s.identity; }))
    return false;
  p.seekers.push_back(s);
  return true;
}

bool MemorySeeks::remove(const std::string& pool, const std::string& seek,
                         const std::string& identity) {
  auto it = pools_.find(pool);
  if (it == pools_.end()) return false;
  auto n = std::erase_if(it->second.seekers, [&](const Seeker& x) {
    return x.seek == seek && (identity.empty() || x.identity == identity);
  });
  if (it->second.seekers.empty()) pools_.erase(it);
  return n > 0;
}

std::vector<Pool> MemorySeeks::pools() {
  std::vector<Pool> out;
  for (const auto& [id, p] : pools_) out.push_back(p);
  return out;
}

bool MemorySeeks::take(const std::string& pool, const std::vector<std::string>& seeks) {
  auto it = pools_.find(pool);
  if (it == pools_.end()) return false;
  auto& list = it->second.seekers;
  for (const auto& s : seeks)
    if (std::none_of(list.begin(), list.end(), [&](const Seeker& x) { return x.seek == s; }))
      return false;
  std::erase_if(list, [&](const Seeker& x) {
    return std::find(seeks.begin(), seeks.end(), x.seek) != seeks.end();
  });
  if (list.empty()) pools_.erase(it);
  return true;
}

}  // namespace tanbo_server::server::pairing
