#!/usr/bin/env bash
# Fails when a C++ source of the project differs from what clang-format makes of it (the
# .clang-format at the root; Debian 12's clang-format 14, which tools/install-deps.sh --test
# installs). Prints each file that differs and the command that fixes them all.
# Usage: tools/check-format.sh [CLANG_FORMAT]
set -euo pipefail
cd "$(dirname "$0")/.."
tool="${1:-clang-format}"
command -v "$tool" >/dev/null || { echo "no $tool: tools/install-deps.sh --test installs it" >&2; exit 1; }
if git rev-parse --git-dir >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
else  # an exported tree
  mapfile -t files < <(find engine protocol server tests bench tools -name '*.cpp' -o -name '*.hpp' | sort)
fi
bad=()
for f in "${files[@]}"; do
  "$tool" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ "${#bad[@]}" -gt 0 ]; then
  printf 'not formatted: %s\n' "${bad[@]}"
  echo "fix: clang-format -i ${bad[*]}"
  exit 1
fi
echo "${#files[@]} files formatted"
