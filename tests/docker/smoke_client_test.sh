#!/bin/sh
# docker/smoke-client.mjs against the built server, outside any container: the image check
# (docker/verify-image.sh) relies on it, so a protocol change that breaks it fails here first.
# usage: smoke_client_test.sh SERVER WEB_DIR
set -eu
server=$1 web=$2
here=$(cd "$(dirname "$0")/../.." && pwd)
data=$(mktemp -d)
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
"$server" --port "$port" --data-dir "$data" --web-dir "$web" >"$data/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$data"' EXIT
client="$here/docker/smoke-client.mjs"
for _ in $(seq 50); do node "$client" health "127.0.0.1:$port" >/dev/null 2>&1 && break; sleep 0.2; done
node "$client" health "127.0.0.1:$port"
node "$client" web "127.0.0.1:$port"
out=$(node "$client" play "127.0.0.1:$port") || { tail -20 "$data/server.log"; exit 1; }
echo "$out"
room=${out#*\"room\":\"}
room=${room%%\"*}
node "$client" games "127.0.0.1:$port" "$room"
