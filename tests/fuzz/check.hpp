#pragma once
// What every fuzz target shares: a broken invariant prints what broke and aborts, which libFuzzer
// reports as a crash with the input that caused it.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace tanbo_server::fuzz {

[[noreturn]] inline void broken(std::string_view what, std::string_view detail = {}) {
  std::fprintf(stderr, "\n== invariant broken: %.*s\n%.*s\n", int(what.size()), what.data(),
               int(detail.size()), detail.data());
  std::abort();
}

#define TANBO_FUZZ_CHECK(cond, detail)                          \
  do {                                                          \
    if (!(cond)) ::tanbo_server::fuzz::broken(#cond, (detail)); \
  } while (0)

}  // namespace tanbo_server::fuzz
