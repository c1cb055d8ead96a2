#!/usr/bin/env bash
# User-space instructions per accepted move: tanbo-server under callgrind while tanbo-load plays
# ROOMS 2-player mancala-simple rooms with 3 spectators each over loopback. The counters are
# zeroed once every room plays and dumped DURATION seconds later; the figure is the instructions
# between the two over the moves the server accepted between them (its /metrics). Unlike CPU
# time it does not move with the machine's speed or its other load, so two builds compare in
# one run each; the kernel's part (the sends) is not in it. Needs valgrind (apt install valgrind).
#
# Usage: bench/instructions-per-move.sh            one JSON line on stdout
# Environment: BUILD (default build/release: server/tanbo-server and bench/load/tanbo-load),
#   ROOMS (default 50), DURATION (seconds counted, default 20), LOAD_FLAGS (more tanbo-load
#   flags, e.g. --acts-without-id), PROFILE (a file to keep the counted dump in, for
#   callgrind_annotate --inclusive=yes PROFILE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=SCRIPTDIR/lib.sh
source "$here/lib.sh"
build=${BUILD:-$root/build/release}
rooms=${ROOMS:-50}
duration=${DURATION:-20}
server_bin=$build/server/tanbo-server
load_bin=$build/bench/load/tanbo-load
command -v callgrind_control >/dev/null || { echo "needs valgrind (apt install valgrind)" >&2; exit 2; }
for b in "$server_bin" "$load_bin"; do [ -x "$b" ] || { echo "no $b (build it first)" >&2; exit 2; }; done
raise_fd_limit

tmp=$(mktemp -d /tmp/tanbo-instructions.XXXXXX)
server_pid='' load_pid=''
cleanup() {
  [ -z "$load_pid" ] || kill "$load_pid" 2>/dev/null || true
  [ -z "$server_pid" ] || stop_server "$server_pid"
  rm -rf "$tmp"
}
trap cleanup EXIT

# The accepted moves the server counted so far.
accepted() {
  python3 - "$1" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=30).read().decode()
print(int(sum(float(l.split()[-1]) for l in text.splitlines()
              if l.startswith("tanbo_actions_accepted_total"))))
PY
}

port=$(free_port)
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.%p" "$server_bin" --bind 127.0.0.1 \
  --port "$port" --data-dir "$tmp/data" "${load_test_server_flags[@]}" 2>"$tmp/server.log" &
server_pid=$!
for _ in $(seq 300); do
  "$server_bin" --healthcheck --bind 127.0.0.1 --port "$port" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.log" >&2; exit 1; }
  sleep 0.2
done

# Long enough to outlast the count: the load is stopped once it is taken.
# shellcheck disable=SC2086
"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$rooms" --players-per-room 2 \
  --spectators-per-room 3 --game mancala-simple --duration $((duration * 10 + 60)) \
  --setup-timeout 300 ${LOAD_FLAGS:-} >"$tmp/load.json" 2>"$tmp/load.log" &
load_pid=$!
for _ in $(seq 600); do
  grep -q "set-up done" "$tmp/load.log" 2>/dev/null && break
  kill -0 "$load_pid" 2>/dev/null || { cat "$tmp/load.log" >&2; exit 1; }
  sleep 0.5
done
grep -q "set-up done" "$tmp/load.log" || { echo "the rooms never all played" >&2; exit 1; }
sleep 2  # past the first moves of every room

callgrind_control -z "$server_pid" >/dev/null 2>&1
before=$(accepted "$port")
sleep "$duration"
after=$(accepted "$port")
callgrind_control -d "$server_pid" >/dev/null 2>&1
dump=$(ls -t "$tmp"/cg."$server_pid".* | head -n 1)
[ -z "${PROFILE:-}" ] || cp "$dump" "$PROFILE"
instructions=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$dump" | tail -n 1)
moves=$((after - before))
[ "$moves" -gt 0 ] || { echo "no move accepted while counting" >&2; exit 1; }
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
printf '{"instructions_per_move":%d,"instructions":%s,"moves":%d,"rooms":%d,"duration_s":%s,"load_flags":"%s","commit":"%s","date":"%s"}\n' \
  $((instructions / moves)) "$instructions" "$moves" "$rooms" "$duration" "${LOAD_FLAGS:-}" \
  "$commit" "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
