#!/usr/bin/env bash
# The long chaos run (docs/testing.md, "The chaos run"): PASSES passes in a row of the chaos test,
# each ROOMS rooms at a time on three nodes for CHAOS_SECONDS of faults (outages of OUTAGE_MS), stopping
# at the first pass that fails. Prints each pass's figures; its log goes to OUT/pass-N.log.
# Usage: tests/server/cluster/chaos.sh [server_tests binary]   (default: build/asan/tests/server_tests)
# Environment: PASSES (5), CHAOS_SECONDS (600), ROOMS (30), OUTAGE_MS (10000), OUT (/tmp/tanbo-chaos),
# TANBO_TEST_SERVER (the nodes' binary; default the one built beside the tests).
set -euo pipefail
cd "$(dirname "$0")/../../.."
tests=${1:-build/asan/tests/server_tests}
[ -x "$tests" ] || { echo "no $tests: build the tests first (cmake --preset asan)" >&2; exit 1; }
passes=${PASSES:-5}
out=${OUT:-/tmp/tanbo-chaos}
mkdir -p "$out"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores"
echo "${ROOMS:-30} rooms, ${CHAOS_SECONDS:-600} s of faults, outages of ${OUTAGE_MS:-10000} ms, nodes: ${TANBO_TEST_SERVER:-built beside the tests}"
for pass in $(seq 1 "$passes"); do
  log="$out/pass-$pass.log"
  start=$(date +%s)
  if TANBO_CHAOS_SECONDS=${CHAOS_SECONDS:-600} TANBO_CHAOS_ROOMS=${ROOMS:-30} \
     TANBO_CHAOS_OUTAGE_MS=${OUTAGE_MS:-10000} \
     "$tests" "chaos: faults one after another while rooms play on three nodes" >"$log" 2>&1; then
    verdict=passed
  else
    verdict=FAILED
  fi
  echo "pass $pass: $verdict in $(( $(date +%s) - start )) s"
  grep '^chaos:' "$log" | sed 's/^/  /' || true
  [ "$verdict" = passed ] || { echo "see $log" >&2; exit 1; }
done
