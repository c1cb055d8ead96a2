#!/usr/bin/env bash
# Runs libFuzzer targets for a bounded time each; builds nothing (cmake --preset fuzz, then
# cmake --build --preset fuzz). Fails when any target finds a crash, a leak, a timeout or a broken
# invariant; prints executions and coverage per target. docs/testing.md has the details.
#
# Usage: tests/fuzz/run.sh [-t SECONDS] [-n RUNS] [-j JOBS] [-b BUILD_DIR] [TARGET...]
#   TARGET: protocol, room, record, engine_<game> (one per game: engine_tanbo,
#           engine_steere_tanbo, ...), or with the fuzz_ prefix; none given: every target built.
#   -t  seconds per target (default $FUZZ_SECONDS, else 60; 0: no time limit)
#   -n  executions per target, then it stops (default $FUZZ_RUNS, else no limit)
#   -j  targets run at once (default $FUZZ_JOBS, else 2)
#   -b  the fuzz build directory (default $FUZZ_BUILD, else build/fuzz)
# The committed corpus (tests/fuzz/corpus/<target>) is read, never written: each run works on a
# copy under $FUZZ_OUT (default build/fuzz/runs), where findings (crash-*, leak-*, timeout-*) and
# each target's log are kept.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${FUZZ_SECONDS:-60}"
jobs="${FUZZ_JOBS:-2}"
runs="${FUZZ_RUNS:-}"
build="${FUZZ_BUILD:-$root/build/fuzz}"
while getopts "t:n:j:b:h" opt; do
  case "$opt" in
    t) seconds="$OPTARG" ;;
    n) runs="$OPTARG" ;;
    j) jobs="$OPTARG" ;;
    b) build="$OPTARG" ;;
    *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
out="${FUZZ_OUT:-$build/runs}"
all=()
for bin in "$build"/tests/fuzz/fuzz_*; do
  if [ -x "$bin" ]; then all+=("${bin##*/fuzz_}"); fi
done
[ "${#all[@]}" -gt 0 ] || { echo "no fuzz target in $build/tests/fuzz: build them first" >&2; exit 2; }
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=("${all[@]}")

# Inputs larger than this are not tried: records are a few KB, frames less; a room script or an
# engine game is cut at its kMaxSteps, which these lengths just cover.
max_len() {
  case "$1" in
    record) echo 16384 ;;
    protocol) echo 4096 ;;
    room) echo 512 ;;
    *) echo 256 ;;
  esac
}

run_one() {
  local t="$1" bin="$build/tests/fuzz/fuzz_$1" dir="$out/$1"
  rm -rf "$dir" && mkdir -p "$dir/corpus" "$dir/findings"
  if [ -d "$root/tests/fuzz/corpus/$t" ]; then cp -r "$root/tests/fuzz/corpus/$t/." "$dir/corpus/"; fi
  # The inputs that once broke something run first, every time.
  if [ -d "$root/tests/fuzz/regressions/$t" ]; then cp -r "$root/tests/fuzz/regressions/$t/." "$dir/corpus/"; fi
  local rc=0
  # No stack recorded per allocation (thirty frames by default): unwinding at every malloc was a
  # seventh of the engine targets' time at thirty frames, a sixth of engine_steere_tanbo's still
  # at eight. A finding's own stack is printed all the same; it replays with ASAN_OPTIONS unset
  # for where the memory was allocated and freed.
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=0}" UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$bin" "$dir/corpus" -max_total_time="$seconds" ${runs:+-runs="$runs"} -max_len="$(max_len "$t")" -timeout=20 \
    -rss_limit_mb=2560 -print_final_stats=1 -artifact_prefix="$dir/findings/" \
    >"$dir/log" 2>&1 || rc=$?
  echo "$rc" >"$dir/rc"
}

summary() {
  local t="$1" dir="$out/$1" rc execs rate line cov ft
  rc="$(cat "$dir/rc")"
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)"
  rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -1)"
  line="$(grep -E '^#[0-9]+' "$dir/log" | tail -1 || true)"
  cov="$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")"
  ft="$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$line")"
  printf '%-24s %-8s execs %-12s exec/s %-8s cov %-7s ft %-7s\n' "$t" \
    "$([ "$rc" = 0 ] && echo ok || echo FAILED)" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}"
  if [ "$rc" != 0 ]; then
    echo "  findings in $dir/findings; the log's end:"
    tail -40 "$dir/log" | sed 's/^/  | /'
    return 1
  fi
}

for t in "${targets[@]}"; do
  t="${t#fuzz_}"
  [ -x "$build/tests/fuzz/fuzz_$t" ] || { echo "no target $build/tests/fuzz/fuzz_$t (build the fuzz preset)" >&2; exit 2; }
done
mkdir -p "$out"
echo "fuzzing ${#targets[@]} target(s), ${seconds}s each, $jobs at a time; work in $out"
running=0
for t in "${targets[@]}"; do
  t="${t#fuzz_}"
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
done
wait || true

failed=0
for t in "${targets[@]}"; do summary "${t#fuzz_}" || failed=1; done
exit "$failed"
