#!/usr/bin/env bash
# Every registered game's random self-play figure, in one run: the named configurations of
# engine-selfplay.sh, then any game of `tanbo-engine games` it does not name yet, with its
# defaults. Prints the lines of engine-selfplay.sh and a Markdown table for docs/performance.md.
# Usage: bench/engine-all.sh [path/to/tanbo-engine]   (default: build/release/engine/tanbo-engine)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/.."
engine=${1:-build/release/engine/tanbo-engine}
[ -x "$engine" ] || { echo "no $engine: build the release preset first" >&2; exit 1; }

out=$("$here/engine-selfplay.sh" "$engine")
echo "$out"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

named=$(grep -o -- '--game [a-z0-9-]*' "$here/engine-selfplay.sh" | awk '{print $2}' | sort -u)
for game in $("$engine" games | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)))'); do
  if ! grep -qx -- "$game" <<<"$named"; then
    j=$(taskset -c 0 "$engine" selfplay --game "$game" --games 2000 --seed 1)
    python3 -c 'import json,sys; j=json.loads(sys.argv[2]); print("%-34s %10.0f games/s %12.0f decisions/s  %s" % (sys.argv[1], j["games_per_s"], j["decisions_per_s"], json.dumps(j["results"])))' "$game (defaults, not in engine-selfplay.sh)" "$j"
  fi
done | tee /tmp/engine-all-extra.$$
echo
echo "| configuration | games/s | decisions/s |"
echo "| --- | --- | --- |"
{ echo "$out" | tail -n +2; cat /tmp/engine-all-extra.$$; } | python3 -c '
import re,sys
for line in sys.stdin:
    m = re.match(r"(.*?)\s+([\d.]+) games/s\s+([\d.]+) decisions/s", line)
    if m:
        print("| %s | %s | %.1f M |" % (m.group(1).strip(), format(int(float(m.group(2))), ","), float(m.group(3)) / 1e6))'
rm -f /tmp/engine-all-extra.$$
