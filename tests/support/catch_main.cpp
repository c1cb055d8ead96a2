// The test executables' main: Catch2's, with one more outcome. A run in which a test stopped for
// want of a service (missing.hpp) and nothing failed exits kSkippedExit, which ctest reports as
// skipped; a failure count that happens to equal it is reported as 1, never as a skip.
#define CATCH_CONFIG_RUNNER
#include <atomic>
#include <cstdlib>
#include <string_view>

#include "tests/support/missing.hpp"

namespace tanbo_server::test {

namespace {
std::atomic<bool> skipped{false};
}  // namespace

bool missing_allowed() {
  const char* allow = std::getenv("TANBO_TEST_ALLOW_MISSING");
  return allow != nullptr && std::string_view(allow) == "1";
}

void note_skipped() { skipped = true; }

}  // namespace tanbo_server::test

int main(int argc, char* argv[]) {
  const int failed = Catch::Session().run(argc, argv);
  if (failed != 0) return failed == tanbo_server::test::kSkippedExit ? 1 : failed;
  return tanbo_server::test::skipped ? tanbo_server::test::kSkippedExit : 0;
}
