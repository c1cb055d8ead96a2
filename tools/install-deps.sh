#!/usr/bin/env bash
# Installs every build, run and test dependency from Debian 12's archive. Idempotent.
# Usage: tools/install-deps.sh [--test]   (--test adds what the test suite needs)
set -euo pipefail

packages=(
  g++ cmake ninja-build pkg-config
  libboost1.81-dev nlohmann-json3-dev libspdlog-dev libssl-dev
  libsqlite3-dev libsqlitecpp-dev libpqxx-dev
  libhiredis-dev
  libutf8proc-dev
  libicu-dev
  libsodium-dev
  zlib1g-dev libbrotli-dev
  john-data  # /usr/share/john/password.lst: the common passwords refused (--common-passwords)
  libcli11-dev
  libjemalloc-dev
  prometheus-cpp-dev
  catch2
)

with_tests=0
for arg in "$@"; do
  case "$arg" in
    --test) with_tests=1 ;;
    *) echo "usage: $0 [--test]" >&2; exit 2 ;;
  esac
done
if [ "$with_tests" = 1 ]; then
  packages+=(clang libclang-rt-14-dev)  # the libFuzzer targets (tests/fuzz)
  packages+=(clang-format)  # the sources checked against .clang-format (tools/check-format.sh)
  packages+=(postgresql)  # the store tests run against PostgreSQL too (tests/server/store)
  packages+=(redis-server)  # the cluster tests start one (tests/server/cluster)
  packages+=(python3-websockets python3-pip python3-setuptools)  # the Python client (tests/clients)
  packages+=(json-schema-test-suite)  # the schema validator's conformance test (tests/protocol)
  packages+=(chromium fonts-ipafont-gothic)  # the browser tests (tests/web), Japanese included
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then packages+=(nodejs npm); fi
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
if [ "$with_tests" = 1 ]; then
  # playwright-core only, pinned by the lock file; it drives Debian's chromium, downloads none.
  (cd "$(dirname "$0")/../tests/web" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
  # The page's static checks (tools/web-check): typescript, eslint, pinned by their lock file.
  (cd "$(dirname "$0")/web-check" && npm ci --no-audit --no-fund --loglevel=error)
  # The JavaScript client (clients/js): ws, and typescript for its types' test.
  (cd "$(dirname "$0")/../clients/js" && npm ci --no-audit --no-fund --loglevel=error)
  # The HTTP API description's linter (tools/openapi-lint): @redocly/cli, pinned by its lock file.
  (cd "$(dirname "$0")/openapi-lint" && npm ci --no-audit --no-fund --loglevel=error)
fi
