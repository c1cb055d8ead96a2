#include "server/cluster/link_order.hpp"

#include <random>

namespace tanbo_server::server::cluster {

LinkStamps::LinkStamps() {
  std::random_device device;
  // 52 bits: exact in any JSON reader.
  run_ = ((std::uint64_t(device()) << 32) | device()) >> 12;
}

void LinkStamps::stamp(const std::string& to, nlohmann::json& head) {
  head["run"] = run_;
  head["seq"] = ++last_[to];
}

LinkArrivals::Verdict LinkArrivals::check(const nlohmann::json& head) {
  auto from = head.find("from");
  auto run = head.find("run");
  auto seq = head.find("seq");
  if (from == head.end() || run == head.end() || seq == head.end() || !from->is_string() ||
      !run->is_number_unsigned() || !seq->is_number_unsigned())
    return Verdict::in_order;  // not numbered: nothing to compare
  Link& link = links_[from->get<std::string>()];
  const auto r = run->get<std::uint64_t>(), n = seq->get<std::uint64_t>();
  // A sender that started again numbers from 1; what it had sent before went with it (the
  // connections it served were closed when it went).
  if (link.run != r) {
    link = {r, n};
    return Verdict::in_order;
  }
  if (n <= link.seq) return Verdict::stale;
  const bool gap = n != link.seq + 1;
  link.seq = n;
  return gap ? Verdict::after_gap : Verdict::in_order;
}

}  // namespace tanbo_server::server::cluster
