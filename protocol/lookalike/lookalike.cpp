#include "protocol/lookalike/lookalike.hpp"

#include <unicode/uspoof.h>

#include <memory>
#include <utility>

#include "protocol/text.hpp"

namespace tanbo_server::protocol {
namespace {

struct CloseChecker {
  void operator()(USpoofChecker* c) const { uspoof_close(c); }
};
using Checker = std::unique_ptr<USpoofChecker, CloseChecker>;

// One checker for the process (null if ICU could not make it): ICU's functions that take a
// const checker, getSkeleton among them, may run on many threads at once.
const USpoofChecker* checker() {
  static const Checker one = [] {
    UErrorCode status = U_ZERO_ERROR;
    Checker c(uspoof_open(&status));
    return U_FAILURE(status) ? Checker() : std::move(c);
  }();
  return one.get();
}

std::optional<std::string> skeleton(const std::string& text) {
  const USpoofChecker* sc = checker();
  if (!sc) return std::nullopt;
  std::string out(text.size() * 3 + 16, '\0');
  for (int attempt = 0; attempt < 2; ++attempt) {
    UErrorCode status = U_ZERO_ERROR;
    const int32_t n = uspoof_getSkeletonUTF8(sc, 0, text.data(), int32_t(text.size()), out.data(),
                                             int32_t(out.size()), &status);
    if (status == U_BUFFER_OVERFLOW_ERROR && n > 0) {
      out.resize(std::size_t(n));
      continue;
    }
    if (U_FAILURE(status) || n < 0) return std::nullopt;
    out.resize(std::size_t(n));
    return out;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> lookalike_key(std::string_view name) {
  auto nfkc = to_nfkc(name);
  if (!nfkc) return std::nullopt;
  auto folded = fold_case(*nfkc);
  if (!folded) return std::nullopt;
  auto skel = skeleton(*folded);
  if (!skel) return std::nullopt;
  return fold_case(*skel);
}

std::vector<std::string> lookalike_keys(std::string_view name) {
  std::vector<std::string> out;
  auto blind = lookalike_key(name);
  if (!blind) return out;
  out.push_back(std::move(*blind));
  auto nfkc = to_nfkc(name);
  auto skel = nfkc ? skeleton(*nfkc) : std::nullopt;
  auto cased = skel ? fold_case(*skel) : std::nullopt;
  if (cased && *cased != out.front()) out.push_back(std::move(*cased));
  return out;
}

}  // namespace tanbo_server::protocol
