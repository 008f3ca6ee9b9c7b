#!/usr/bin/env bash
# `npm ci` in web/ when node_modules is missing or older than the lock file.
set -euo pipefail
cd "$(dirname "$0")/../web"
stamp=node_modules/.closewise-lock-stamp
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "==> npm ci (web)"
  npm ci --no-audit --no-fund
  touch "$stamp"
fi
