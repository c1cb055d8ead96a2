# shellcheck shell=bash
# Shell functions of the load scripts that start tanbo-server: source it, do not run it.
# Used by bench/server-load.sh and bench/peers/side-by-side.sh.

# The defaults would throttle a load test: 10 messages/s per connection, 8 rooms per identity,
# 10,000 connections. Log at warn: a line per game start and end is not what is measured here.
# shellcheck disable=SC2034 # read by the scripts that source this file
load_test_server_flags=(--log-level warn --rate 1000000 --rate-burst 1000000
  --max-connections 100000 --max-rooms 1000)

# Each connection is a descriptor on both sides: take the hard limit.
raise_fd_limit() {
  ulimit -n "$(ulimit -Hn)"
}

# A port free on 127.0.0.1 now; at --log-level warn tanbo-server does not log the one it took.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# stop_server PID: TERM, up to 5 s to exit, then KILL; reaped either way.
stop_server() {
  kill -TERM "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# start_tanbo_server [--cpu N] NAME BIN LOG [FLAG...]: runs BIN --bind 127.0.0.1 --port P FLAG...
# on a free port P (pinned to core N), its stderr to LOG, and waits up to 10 s for it to answer
# --healthcheck. Sets server_port and server_pid. If it never answers: says so as NAME, shows
# LOG, stops it and fails. Not to be called in $(...): the server must be this shell's child,
# for stop_server to reap it.
start_tanbo_server() {
  local pin=()
  if [ "$1" = --cpu ]; then pin=(taskset -c "$2"); shift 2; fi
  local name=$1 bin=$2 log=$3
  shift 3
  server_port=$(free_port)
  # taskset execs the server, so $! is the server's own pid.
  "${pin[@]}" "$bin" --bind 127.0.0.1 --port "$server_port" "$@" 2>"$log" &
  server_pid=$!
  for _ in $(seq 100); do
    if "$bin" --healthcheck --bind 127.0.0.1 --port "$server_port" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "$name: the server did not start:" >&2; cat "$log" >&2
  stop_server "$server_pid"
  return 1
}
