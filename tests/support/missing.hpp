#pragma once
// What a test needs and this machine lacks (PostgreSQL, redis-server, root for a mount): the test
// fails, naming it. With TANBO_TEST_ALLOW_MISSING=1 in the environment it stops there instead, and
// the test executable exits with kSkippedExit when nothing else failed: ctest reports the test as
// skipped (SKIP_RETURN_CODE, tests/CMakeLists.txt), never as passed.
#include <string>

#include <catch2/catch.hpp>

namespace tanbo_server::test {

inline constexpr int kSkippedExit = 77;

// Defined beside main (tests/support/catch_main.cpp).
bool missing_allowed();
void note_skipped();

// Fails the test, naming `what`; under TANBO_TEST_ALLOW_MISSING=1 says it and returns true, and
// the caller returns.
inline bool skip_missing(const std::string& what) {
  if (!missing_allowed())
    FAIL(what << " (TANBO_TEST_ALLOW_MISSING=1 reports such a test as skipped instead)");
  WARN("skipped: " << what);
  note_skipped();
  return true;
}

}  // namespace tanbo_server::test
