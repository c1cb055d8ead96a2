#include "server/net/descriptors.hpp"

#include <sys/resource.h>

#include <algorithm>

namespace tanbo_server::server {

DescriptorPlan plan_descriptors(std::size_t max_connections, std::size_t max_http) {
  DescriptorPlan plan;
  plan.max_http = max_http;
  rlimit lim{};
  if (getrlimit(RLIMIT_NOFILE, &lim) != 0) return plan;
  if (lim.rlim_cur < lim.rlim_max) {
    rlimit raised = lim;
    raised.rlim_cur = lim.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) lim = raised;
  }
  if (lim.rlim_cur == RLIM_INFINITY) return plan;
  plan.limit = std::size_t(lim.rlim_cur);
  const std::size_t usable =
      plan.limit > kReservedDescriptors ? plan.limit - kReservedDescriptors : 0;
  if (max_connections + max_http <= usable) return plan;
  const std::size_t http_share = std::max<std::size_t>(8, usable / 4);
  if (max_http > http_share) {
    plan.max_http = http_share;
    plan.warnings.push_back("--max-http-connections lowered from " + std::to_string(max_http) +
                            " to " + std::to_string(http_share) + " to fit " +
                            std::to_string(plan.limit) + " file descriptors");
  }
  if (max_connections + plan.max_http > usable)
    plan.warnings.push_back(
        "--max-connections " + std::to_string(max_connections) + " does not fit the limit of " +
        std::to_string(plan.limit) + " file descriptors (" + std::to_string(kReservedDescriptors) +
        " kept for the store and logs, " + std::to_string(plan.max_http) + " for HTTP): about " +
        std::to_string(usable > plan.max_http ? usable - plan.max_http : 0) +
        " WebSockets can open; raise the limit (ulimit -n, or the container's nofile) or lower "
        "--max-connections");
  return plan;
}

}  // namespace tanbo_server::server
