#!/usr/bin/env bash
# The SSO tests' identity provider (panva's oidc-provider in crates/testkit/oidc, used by the API's
# Rust tests and the e2e specs), installed from its lock file when missing or stale: once, before
# tests that run in parallel processes would each try to.
set -euo pipefail
cd "$(dirname "$0")/.."
oidc=crates/testkit/oidc
if [ ! -d "$oidc/node_modules" ] || [ "$oidc/package-lock.json" -nt "$oidc/node_modules/.package-lock.json" ]; then
  echo "==> installing $oidc packages (npm ci)"
  (cd "$oidc" && npm ci --no-audit --no-fund)
fi
