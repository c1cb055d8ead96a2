#!/usr/bin/env bash
# The cost of a move side by side: tanbo-server, Colyseus and boardgame.io playing the same
# 2-player mancala-simple, R rooms of 2 players + 3 spectators each, a fresh server per case,
# the server pinned to core 0 and its load driver to core 1. One JSON line per (server, case) on
# stdout and appended to OUT; the drivers' and servers' logs go to stderr when a case fails.
# See bench/peers/README.md for what each member means.
#
# Environment: ROOMS (cases, default "100 1000"), SERVERS (default "colyseus boardgameio tanbo
#   tanbo-no-ok tanbo-deflate"; tanbo-deflate: tanbo-load's clients ask for compression, as
#   browsers do; tanbo-no-ok: they send their acts without an id, so that the state is the only
#   answer, no `ok`, as the peers' clients are answered),
#   DURATION (seconds measured per case, default 20), BUILD (default build/release: the
#   tanbo-server and tanbo-load binaries in it), OUT (default bench-peers-<date>.jsonl in the
#   current directory), CHECK (non-empty: the peer drivers first send each room illegal moves
#   and report how they fared).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=SCRIPTDIR/../lib.sh
source "$root/bench/lib.sh"
rooms_list=${ROOMS:-100 1000}
servers=${SERVERS:-colyseus boardgameio tanbo tanbo-no-ok tanbo-deflate}
duration=${DURATION:-20}
build=${BUILD:-$root/build/release}
server_bin=$build/server/tanbo-server
load_bin=$build/bench/load/tanbo-load
out=${OUT:-$PWD/bench-peers-$(date -u +%Y%m%dT%H%M%S).jsonl}
check_flag=()
[ -z "${CHECK:-}" ] || check_flag=(--check)

raise_fd_limit
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "commit $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, node $(node --version), results in $out" >&2

# Waits up to 10 s for PORT to accept a connection while PID lives.
wait_port() {
  local port=$1 pid=$2
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 1
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  return 1
}

# measure NAME WHAT TMP PID CMD...: runs the load command CMD, its stderr to TMP/load.log, then
# stops the server PID. Sets the caller's json (CMD's report) and before (the load average as CMD
# began). With no report, says that WHAT printed nothing, shows the logs and fails.
measure() {
  local name=$1 what=$2 tmp=$3 pid=$4
  shift 4
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  json=$("$@" 2>"$tmp/load.log") || true
  stop_server "$pid"
  [ -n "$json" ] && return 0
  echo "$name: $what printed nothing:" >&2; cat "$tmp/load.log" "$tmp/server.log" >&2
  return 1
}

# emit SERVER ROOMS LOADAVG_BEFORE COMMAND < JSON: adds the case, command, date, commit and load
# average; turns tanbo-load's report into the peers' summary members (keeping it whole). The
# JSON line goes out whole before the one-line summary, so stdout and stderr never interleave.
emit() {
  local lines
  lines=$(python3 "$here/annotate.py" "$1" "$2" "$commit" "$3" "$(cut -d' ' -f1-3 /proc/loadavg)" "$4") || return 1
  head -n 1 <<<"$lines" | tee -a "$out"
  tail -n +2 <<<"$lines" >&2
}

ensure_deps() {
  [ -d "$1/node_modules" ] && return 0
  echo "installing $(basename "$1")'s npm packages (npm ci)" >&2
  (cd "$1" && npm ci --no-audit --no-fund >&2)
}

# run_peer NAME DIR ROOMS: the peer's server on core 0, its driver on core 1.
run_peer() {
  local name=$1 dir=$2 rooms=$3 tmp port pid json before
  ensure_deps "$dir"
  tmp=$(mktemp -d /tmp/tanbo-peer.XXXXXX)
  port=$(free_port)
  # taskset and env exec the command, so $! is the server's own pid.
  taskset -c 0 env NODE_ENV=production node "$dir/server.js" --port "$port" 2>"$tmp/server.log" &
  pid=$!
  if ! wait_port "$port" "$pid"; then
    echo "$name: the server did not start:" >&2; cat "$tmp/server.log" >&2
    stop_server "$pid"; rm -rf "$tmp"; return 1
  fi
  local cmd=(taskset -c 1 node "$dir/driver.js" --url "ws://127.0.0.1:$port" --rooms "$rooms"
    --duration "$duration" --server-pid "$pid" "${check_flag[@]}")
  measure "$name" "the driver" "$tmp" "$pid" "${cmd[@]}" || { rm -rf "$tmp"; return 1; }
  tail -n 3 "$tmp/load.log" >&2
  echo "$json" | emit "$name" "$rooms" "$before" "${cmd[*]/#$root\//}"
  rm -rf "$tmp"
}

# run_tanbo NAME ROOMS [TANBO-LOAD FLAGS]: tanbo-server as bench/server-load.sh starts it,
# tanbo-load against it (tanbo-deflate: its clients ask for compression, as browsers do;
# tanbo-no-ok: they act without an id).
run_tanbo() {
  local name=$1 rooms=$2 tmp server_port server_pid json before
  shift 2
  for b in "$server_bin" "$load_bin"; do
    if [ ! -x "$b" ]; then
      echo "tanbo: no $b (build tanbo-server and tanbo-load first, or set BUILD); skipped" >&2
      return 0
    fi
  done
  tmp=$(mktemp -d /tmp/tanbo-peer.XXXXXX)
  start_tanbo_server --cpu 0 tanbo "$server_bin" "$tmp/server.log" --data-dir "$tmp/data" \
    "${load_test_server_flags[@]}" || { rm -rf "$tmp"; return 1; }
  local cmd=(taskset -c 1 "$load_bin" --url "ws://127.0.0.1:$server_port/ws" --server-pid "$server_pid"
    --rooms "$rooms" --players-per-room 2 --spectators-per-room 3 --game mancala-simple
    --duration "$duration" "$@")
  measure tanbo tanbo-load "$tmp" "$server_pid" "${cmd[@]}" || { rm -rf "$tmp"; return 1; }
  local version
  version=$("$server_bin" --version 2>/dev/null | head -n 1 || echo unknown)
  echo "$json" | TANBO_VERSION=$version TANBO_NAME=$name DURATION_S=$duration \
    emit "$name" "$rooms" "$before" "${cmd[*]/#$root\//}"
  rm -rf "$tmp"
}

status=0
for rooms in $rooms_list; do
  for s in $servers; do
    case $s in
      colyseus) run_peer colyseus "$here/colyseus" "$rooms" || status=1 ;;
      boardgameio) run_peer boardgame.io "$here/boardgameio" "$rooms" || status=1 ;;
      tanbo) run_tanbo tanbo "$rooms" || status=1 ;;
      tanbo-deflate) run_tanbo tanbo-deflate "$rooms" --deflate || status=1 ;;
      tanbo-no-ok) run_tanbo tanbo-no-ok "$rooms" --acts-without-id || status=1 ;;
      *) echo "unknown server $s (colyseus boardgameio tanbo tanbo-deflate tanbo-no-ok)" >&2; exit 2 ;;
    esac
  done
done
exit $status
