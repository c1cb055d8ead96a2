#!/usr/bin/env bash
# Random self-play throughput of every game on one core, the figures of docs/performance.md.
# Usage: bench/engine-selfplay.sh [path/to/tanbo-engine]   (default: build/release/engine/tanbo-engine)
set -euo pipefail
cd "$(dirname "$0")/.."
engine=${1:-build/release/engine/tanbo-engine}
[ -x "$engine" ] || { echo "no $engine: build the release preset first" >&2; exit 1; }

run() {  # name games args...
  local name=$1 games=$2
  shift 2
  local out
  out=$(taskset -c 0 "$engine" selfplay --games "$games" --seed 1 "$@")
  python3 -c 'import json,sys; j=json.loads(sys.argv[2]); print("%-34s %10.0f games/s %12.0f decisions/s  %s" % (sys.argv[1], j["games_per_s"], j["decisions_per_s"], json.dumps(j["results"])))' "$name" "$out"
}

echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(date -u +%Y-%m-%d), $(nproc) cores"
run "tanbo" 20000 --game tanbo
run "steere-tanbo 11x11" 2000 --game steere-tanbo
run "steere-tanbo 19x19" 500 --game steere-tanbo --options '{"size":"19x19"}'
run "mancala-simple 2p 6 holes 4 stones" 300000 --game mancala-simple
run "mancala-simple 4p" 100000 --game mancala-simple --players 4
run "tsoro 4x21" 5000 --game tsoro
run "tsoro 4x6" 20000 --game tsoro --options '{"columns":6}'
# Any other game of the catalogue, at its default options.
for id in $("$engine" games | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))'); do
  case "$id" in tanbo | steere-tanbo | mancala-simple | tsoro) ;; *) run "$id" 2000 --game "$id" ;; esac
done
