#!/usr/bin/env bash
# The cluster figures: the same load on 1 node and on N nodes of a cluster (one throwaway Redis,
# one throwaway PostgreSQL 15), tanbo-load spreading each room's connections over the nodes, over
# loopback on the same machine; one JSON line per case (and a one-line summary on stderr), then a
# table of the cases on stderr.
#
# Usage: bench/cluster-load.sh
# Environment: BUILD (default build/release: server/tanbo-server and bench/load/tanbo-load in it),
#   SERVER and LOAD (either binary, instead of BUILD's; LOAD must take --url repeated), NODES (the
#   node counts, one case each, default "1 3"), ROOMS (default 200), PLAYERS (per room, default
#   2), SPECTATORS (per room, default 3), GAME (default mancala-simple), DURATION (seconds
#   measured per case, default 20), LOAD_THREADS (default 1), LEASE_MS (--cluster-lease-ms of the
#   nodes; default: the server's), SEEKERS (Play now instead: that many connections spread over
#   the nodes seek in one pool of GAME for PLAYERS, play the game they are paired into and seek
#   again; ROOMS and SPECTATORS are then unused), OUT (the JSON lines, default
#   cluster-results-<date>.jsonl in the current directory), KEEP=1 (keep the temp dir: logs,
#   data dirs, the PostgreSQL cluster; it is also kept when a case fails), REDIS_SERVER (default
#   /usr/bin/redis-server), PG_BIN (default /usr/lib/postgresql/15/bin).
#
# Every case uses the same total load (ROOMS x (PLAYERS + SPECTATORS) connections): room k is
# created on node k mod N, its member j connects to node (k+j) mod N. Each case gets a fresh
# database and an emptied Redis; the nodes are n0 ... n(N-1), each with its own port and data dir.
# As root (PostgreSQL refuses root) initdb and pg_ctl run as the user postgres.
#
# PostgreSQL runs with fsync=off (as the tests' PgCluster does): commits do not wait for the disk,
# so the figures measure the nodes, not this machine's disk, and they are better than a
# production PostgreSQL would give. Every case writes the same games to the same PostgreSQL with
# the same setting, so this does not bias the 1-node / N-node comparison.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=${BUILD:-$root/build/release}
server_bin=${SERVER:-$build/server/tanbo-server}
load_bin=${LOAD:-$build/bench/load/tanbo-load}
redis_bin=${REDIS_SERVER:-/usr/bin/redis-server}
pg_bin=${PG_BIN:-/usr/lib/postgresql/15/bin}
read -r -a node_counts <<<"${NODES:-1 3}"
rooms=${ROOMS:-200}
players=${PLAYERS:-2}
spectators=${SPECTATORS:-3}
game=${GAME:-mancala-simple}
duration=${DURATION:-20}
threads=${LOAD_THREADS:-1}
keep=${KEEP:-}
out=${OUT:-$PWD/cluster-results-$(date -u +%Y%m%dT%H%M%S).jsonl}
for b in "$server_bin" "$load_bin" "$redis_bin" "$pg_bin/initdb" "$pg_bin/pg_ctl" "$pg_bin/createdb"; do
  [ -x "$b" ] || { echo "no $b: build tanbo-server and tanbo-load, install redis-server and PostgreSQL 15 first" >&2; exit 1; }
done
[ ${#node_counts[@]} -gt 0 ] || { echo "NODES is empty" >&2; exit 2; }
for n in "${node_counts[@]}"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "NODES: bad node count '$n'" >&2; exit 2; }
  if (( n > 1 )) && ! "$load_bin" --help 2>&1 | grep -q 'repeated'; then
    echo "$load_bin does not take --url repeated (built before 8454103): rebuild tanbo-load" >&2; exit 1
  fi
done

# Each connection is a descriptor on both sides: take the hard limit.
ulimit -n "$(ulimit -Hn)"
fd_limit=$(ulimit -n)

# As bench/server-load.sh: the defaults would throttle a load test (10 messages/s per connection,
# 8 rooms per identity, 10,000 connections); log at warn.
server_flags=(--bind 127.0.0.1 --log-level warn --rate 1000000 --rate-burst 1000000
  --max-connections 100000 --max-rooms 1000)
[ -z "${LEASE_MS:-}" ] || server_flags+=(--cluster-lease-ms "$LEASE_MS")

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Everything lives here; PostgreSQL's part belongs to postgres when run as root.
tmp=$(mktemp -d /tmp/tanbo-cluster-bench.XXXXXX)
as=()
pg_dir=$tmp/pg
mkdir "$pg_dir"
if [ "$(id -u)" = 0 ]; then
  as=(runuser -u postgres --)
  chmod 755 "$tmp"  # postgres must reach its directory
  chown postgres: "$pg_dir"
fi
redis_pid="" pg_started="" failed="" node_pids=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  local p
  for p in "${node_pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  for p in "${node_pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [ -n "$pg_started" ]; then
    "${as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  if [ -n "$redis_pid" ]; then
    kill -TERM "$redis_pid" 2>/dev/null || true
    wait "$redis_pid" 2>/dev/null || true
  fi
  if [ -n "$keep" ] || [ -n "$failed" ] || [ "$status" != 0 ]; then
    echo "temp dir kept: $tmp (logs in it; rm -rf it when done)" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "commit $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores, fd limit $fd_limit, nodes ${node_counts[*]}," \
  "$rooms rooms x ($players + $spectators), results in $out" >&2

# Redis: no persistence, loopback only.
redis_port=$(free_port)
mkdir "$tmp/redis"
"$redis_bin" --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --dir "$tmp/redis" \
  >"$tmp/redis/redis.log" 2>&1 &
redis_pid=$!
redis() { python3 - "$redis_port" "$@" <<'PY'
import socket, sys
port, args = int(sys.argv[1]), sys.argv[2:]
s = socket.create_connection(("127.0.0.1", port), timeout=5)
s.sendall(("*%d\r\n" % len(args) + "".join("$%d\r\n%s\r\n" % (len(a), a) for a in args)).encode())
reply = s.recv(4096).decode()
print(reply.strip())
sys.exit(0 if reply.startswith("+") else 1)
PY
}
up=""
for _ in $(seq 100); do
  if redis PING >/dev/null 2>&1; then up=1; break; fi
  sleep 0.1
done
[ -n "$up" ] || { echo "redis-server did not start:" >&2; cat "$tmp/redis/redis.log" >&2; exit 1; }

# PostgreSQL: a cluster of its own, Unix socket only (in $pg_dir), trust for the user tanbo.
"${as[@]}" "$pg_bin/initdb" -D "$pg_dir/data" -A trust -U tanbo --no-sync -E UTF8 --no-locale \
  >"$pg_dir/initdb.log" 2>&1 || { echo "initdb failed:" >&2; cat "$pg_dir/initdb.log" >&2; exit 1; }
"${as[@]}" "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w \
  -o "-k $pg_dir -c listen_addresses='' -c fsync=off -c max_connections=200" start >/dev/null \
  || { echo "pg_ctl start failed:" >&2; cat "$pg_dir/server.log" >&2; exit 1; }
pg_started=1

results=$tmp/results.jsonl
: >"$results"

# show_logs DIR: what the nodes logged (at warn: warnings and errors only), for a failed case.
show_logs() {
  local f
  for f in "$1"/n*.log; do
    [ -s "$f" ] || continue
    echo "--- $f ($(wc -l <"$f") lines), the last 20:" >&2
    tail -n 20 "$f" >&2
  done
}

# run_case N: N nodes on a fresh database, tanbo-load spread over them.
run_case() {
  local n=$1 name="cluster-$1"
  local dir=$tmp/$name db=c$1
  mkdir "$dir"
  redis FLUSHALL >/dev/null
  "${as[@]}" "$pg_bin/createdb" -h "$pg_dir" -U tanbo "$db"
  local store="postgresql:///$db?host=$pg_dir&user=tanbo"
  local urls=() pids=() k port
  node_pids=()
  # One after the other: the first creates the schema.
  for (( k = 0; k < n; k++ )); do
    port=$(free_port)
    "$server_bin" "${server_flags[@]}" --port "$port" --data-dir "$dir/n$k/data" \
      --cluster "redis://127.0.0.1:$redis_port" --node-id "n$k" --store "$store" \
      2>"$dir/n$k.log" &
    node_pids+=($!)
    local up=""
    for _ in $(seq 100); do
      if "$server_bin" --healthcheck --bind 127.0.0.1 --port "$port" >/dev/null 2>&1; then up=1; break; fi
      kill -0 "${node_pids[k]}" 2>/dev/null || break
      sleep 0.1
    done
    if [ -z "$up" ]; then
      echo "$name: node n$k did not start:" >&2; cat "$dir/n$k.log" >&2
      failed=1; stop_nodes "$name" >/dev/null 2>&1 || true; return 1
    fi
    urls+=(--url "ws://127.0.0.1:$port/ws")
    pids+=(--server-pid "${node_pids[k]}")
  done
  local load_before json args
  if [ -n "${SEEKERS:-}" ]; then
    args=(--rooms 0 --seek "$SEEKERS" --players-per-room "$players" --game "$game"
      --duration "$duration")
  else
    args=(--rooms "$rooms" --players-per-room "$players" --spectators-per-room "$spectators"
      --game "$game" --duration "$duration")
  fi
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  json=$("$load_bin" "${urls[@]}" "${pids[@]}" --threads "$threads" "${args[@]}" \
    2>"$dir/load.log") || true
  local dead=""
  for (( k = 0; k < n; k++ )); do
    kill -0 "${node_pids[k]}" 2>/dev/null || dead+=" n$k"
  done
  [ -z "$dead" ] || { echo "$name: node(s)$dead exited during the run" >&2; failed=1; }
  stop_nodes "$name" || failed=1
  if [ -z "$json" ]; then
    echo "$name: tanbo-load printed nothing:" >&2; cat "$dir/load.log" >&2; show_logs "$dir"
    failed=1; return 1
  fi
  python3 - "$name" "$n" "$commit" "$load_before" "$(cut -d' ' -f1-3 /proc/loadavg)" "$json" \
    "${args[*]}" "$results" <<'PY' | tee -a "$out"
import json, sys, datetime
name, nodes, commit, before, after, text, args, results = sys.argv[1:9]
j = json.loads(text)
j["case"] = name
j["nodes"] = int(nodes)
j["command"] = "tanbo-load " + args + " (--url and --server-pid once per node)"
j["commit"] = commit
j["date"] = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
j["loadavg_before"] = before
j["loadavg_after"] = after
print(json.dumps(j))
with open(results, "a") as f:
    print(json.dumps(j), file=f)
lat = j["latency_ms"]
def p(k):
    v = lat.get(k)
    return "-" if not v else "p50 %.1f p99 %.1f max %.1f" % (v["p50"], v["p99"], v["max"])
s = j.get("server", {})
per = " ".join("%.0f" % x.get("cpu_percent", 0) for x in s.get("per_pid", []))
if "seek" in j:
    k = j["seek"]; w = k["seek_to_paired_ms"] or {}
    print("%-10s seekers %d  %.1f pairings/s  seek to paired p50 %s p99 %s ms  errors %s" % (
        name, k["seekers"], k["pairings_per_s"], w.get("p50", "-"), w.get("p99", "-"),
        json.dumps(j["errors"])), file=sys.stderr)
print("%-10s ok %s conns %6d rooms %5d setup %6.1fs  %8.0f acts/s  player %s  last spectator %s  %9.0f msg/s  server rss %s KiB cpu %s%%%s  errors %s  load %s" % (
    name, j["ok"], j["connections"]["open_at_start"], j["rooms"]["started"], j["setup_s"],
    j["actions"]["accepted_per_s"], p("player"), p("last_spectator"), j["received"]["messages_per_s"],
    s.get("rss_end_kib"), "%.0f" % s["cpu_percent"] if "cpu_percent" in s else "-",
    " (" + per + ")" if per else "", json.dumps(j["errors"]), after), file=sys.stderr)
PY
  if ! python3 -c 'import json,sys; j=json.loads(sys.argv[1]); sys.exit(0 if j["ok"] and not j["errors"] and j["rooms"]["started"] == j["rooms"]["planned"] else 1)' "$json"; then
    echo "$name: not every room started, or errors (see above); the nodes' logs:" >&2
    cat "$dir/load.log" >&2; show_logs "$dir"; failed=1
  fi
}

# stop_nodes NAME: SIGTERM to every node, 30 s to exit, then SIGKILL. Fails when one had to be
# killed or exited with an error.
stop_nodes() {
  local p ok=0 k=0 status
  for p in "${node_pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for _ in $(seq 300); do
    local alive=""
    for p in "${node_pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -n "$alive" ] || break
    sleep 0.1
  done
  for p in "${node_pids[@]}"; do
    if kill -0 "$p" 2>/dev/null; then
      echo "$1: node n$k still running 30 s after SIGTERM: killed" >&2
      kill -KILL "$p" 2>/dev/null || true; ok=1
    fi
    status=0; wait "$p" 2>/dev/null || status=$?
    if [ "$status" != 0 ] && [ "$status" != 143 ]; then
      echo "$1: node n$k exited with status $status" >&2; ok=1
    fi
    k=$((k + 1))
  done
  node_pids=()
  return "$ok"
}

for n in "${node_counts[@]}"; do
  run_case "$n" || true
done

python3 - "$results" "$rooms" "$players" "$spectators" "$duration" <<'PY' >&2
import json, sys
results, rooms, players, spectators, duration = sys.argv[1:6]
rows = [json.loads(l) for l in open(results) if l.strip()]
print("\n%s rooms x (%s players + %s spectators), %s s measured" % (rooms, players, spectators, duration))
print("%-5s  %10s  %14s  %18s  %9s  %s" % ("nodes", "actions/s", "player p99 ms", "last spect. p99 ms", "server cpu", "errors"))
for j in rows:
    lat = j["latency_ms"]
    p99 = lambda k: "%.1f" % lat[k]["p99"] if lat.get(k) else "-"
    cpu = j.get("server", {}).get("cpu_percent")
    print("%-5d  %10.0f  %14s  %18s  %9s  %s" % (j["nodes"], j["actions"]["accepted_per_s"], p99("player"),
          p99("last_spectator"), "-" if cpu is None else "%.0f%%" % cpu, json.dumps(j["errors"])))
PY
[ -z "$failed" ] || { echo "a case failed (see above)" >&2; exit 1; }
