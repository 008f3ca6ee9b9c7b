#!/usr/bin/env bash
# The event streams' load test destination (crates/testkit/webhooks-receiver: the maintained
# `standardwebhooks` npm package verifying each request), installed from its lock file when
# missing or stale: once, before tests that run in parallel processes would each try to.
set -euo pipefail
cd "$(dirname "$0")/.."
receiver=crates/testkit/webhooks-receiver
if [ ! -d "$receiver/node_modules" ] || [ "$receiver/package-lock.json" -nt "$receiver/node_modules/.package-lock.json" ]; then
  echo "==> installing $receiver packages (npm ci)"
  (cd "$receiver" && npm ci --no-audit --no-fund)
fi
