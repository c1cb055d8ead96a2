#pragma once
// What the tests of the network edge share: a value read from /metrics, and waiting for a count
// to come back without timing anything.
#include <string>

#include "tests/server/support/clients.hpp"
#include "tests/server/support/eventually.hpp"

namespace tanbo_server::server::test {

// The value of an unlabelled sample of GET /metrics; -1 when it is not there.
inline double metric(std::uint16_t port, const std::string& name) {
  const std::string text = "\n" + http_get(port, "/metrics").body;
  auto at = text.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + name.size() + 2));
}

}  // namespace tanbo_server::server::test
