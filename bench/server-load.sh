#!/usr/bin/env bash
# The server figures of docs/performance.md: a fresh tanbo-server per case, tanbo-load against it
# over loopback on the same machine, one JSON line per case (and a one-line summary on stderr).
#
# Usage: bench/server-load.sh [CASE...]          CASE: target idle broadcast growth smoke
#                                                 (default: target idle broadcast growth)
# Environment: BUILD (default build/release: server/tanbo-server and bench/load/tanbo-load in it),
#   SERVER and LOAD (either binary, instead of BUILD's), DURATION (seconds measured per case,
#   default 20; growth cells use half), OUT (the JSON lines, default
#   bench-results-<date>.jsonl in the current directory), LOAD_THREADS (default 1),
#   BROADCAST_SPECTATORS (default 5000), GROWTH_MAX_CONNECTIONS (growth cells above it run with
#   fewer rooms; default: the fd limit less 200).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=SCRIPTDIR/lib.sh
source "$here/lib.sh"
build=${BUILD:-$root/build/release}
server_bin=${SERVER:-$build/server/tanbo-server}
load_bin=${LOAD:-$build/bench/load/tanbo-load}
duration=${DURATION:-20}
threads=${LOAD_THREADS:-1}
out=${OUT:-$PWD/bench-results-$(date -u +%Y%m%dT%H%M%S).jsonl}
for b in "$server_bin" "$load_bin"; do
  [ -x "$b" ] || { echo "no $b: build tanbo-server and tanbo-load first" >&2; exit 1; }
done

raise_fd_limit
fd_limit=$(ulimit -n)

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "commit $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, fd limit $fd_limit, results in $out" >&2

# run_case NAME "EXTRA SERVER FLAGS" TANBO-LOAD FLAGS...
run_case() {
  local name=$1 extra=$2
  shift 2
  local dir server_port server_pid
  dir=$(mktemp -d /tmp/tanbo-bench.XXXXXX)
  # shellcheck disable=SC2086
  start_tanbo_server "$name" "$server_bin" "$dir/server.log" "${load_test_server_flags[@]}" $extra \
    --data-dir "$dir/data" || { rm -rf "$dir"; return 1; }
  local load_before json
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  json=$("$load_bin" --url "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid" --threads "$threads" \
    "$@" 2>"$dir/load.log") || true
  stop_server "$server_pid"
  if [ -z "$json" ]; then
    echo "$name: tanbo-load printed nothing:" >&2; cat "$dir/load.log" >&2; rm -rf "$dir"; return 1
  fi
  python3 - "$name" "$commit" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$json" "$*" <<'PY' | tee -a "$out"
import json, sys, datetime
name, commit, before, after, text, args = sys.argv[1:7]
j = json.loads(text)
j["case"] = name
j["command"] = "tanbo-load " + args
j["commit"] = commit
j["date"] = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
j["loadavg_before"] = before
j["loadavg_after"] = after
print(json.dumps(j))
lat = j["latency_ms"]
def p(k):
    v = lat.get(k)
    return "-" if not v else "p50 %.1f p99 %.1f max %.1f" % (v["p50"], v["p99"], v["max"])
s = j.get("server", {})
print("%-28s conns %6d rooms %5d setup %6.1fs  %8.0f acts/s  player %s  last spectator %s  %9.0f msg/s  server rss %s KiB (%s KiB/conn) cpu %s%%  errors %s  load %s" % (
    name, j["connections"]["open_at_start"], j["rooms"]["started"], j["setup_s"],
    j["actions"]["accepted_per_s"], p("player"), p("last_spectator"), j["received"]["messages_per_s"],
    s.get("rss_end_kib"), "%.1f" % s["rss_per_connection_kib"] if "rss_per_connection_kib" in s else "-",
    "%.0f" % s["cpu_percent"] if "cpu_percent" in s else "-", json.dumps(j["errors"]), after), file=sys.stderr)
PY
  rm -rf "$dir"
}

target() {  # 1,000 rooms x (2 players + 3 spectators), no think time
  run_case "target-1000x(2+3)" "" --rooms 1000 --players-per-room 2 --spectators-per-room 3 \
    --game mancala-simple --duration "$duration"
}
idle() {  # 10,000 idle, hello'd, lobby-watching connections
  run_case "idle-10000" "" --idle 10000 --duration "$duration"
}
broadcast() {  # one room, 5,000 spectators: every step's state goes to 5,002 connections
  local n=${BROADCAST_SPECTATORS:-5000}
  run_case "broadcast-1x$n" "--queue-max 100000" --rooms 1 --spectators-per-room "$n" \
    --game mancala-simple --duration "$duration" --setup-timeout 600
}
growth() {  # 10 / 100 / 1,000 rooms x 0 / 10 / 100 spectators; the biggest cell is capped
  local cell=$(( duration / 2 > 0 ? duration / 2 : 1 ))
  local max=${GROWTH_MAX_CONNECTIONS:-$(( fd_limit - 200 ))}
  for rooms in 10 100 1000; do
    for spec in 0 10 100; do
      local r=$rooms
      if (( r * (2 + spec) > max )); then r=$(( max / (2 + spec) )); fi
      run_case "growth-${rooms}x${spec}$([ "$r" != "$rooms" ] && echo " (capped: $r rooms)")" "" \
        --rooms "$r" --spectators-per-room "$spec" --game mancala-simple --duration "$cell" \
        --setup-timeout 300
    done
  done
}
smoke() {  # a few seconds, to check the script itself
  run_case "smoke-10x1" "" --rooms 10 --spectators-per-room 1 --duration 2
}

cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(target idle broadcast growth)
for c in "${cases[@]}"; do
  case $c in
    target|idle|broadcast|growth|smoke) "$c" ;;
    *) echo "unknown case $c (target idle broadcast growth smoke)" >&2; exit 2 ;;
  esac
done
