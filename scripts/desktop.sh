#!/usr/bin/env bash
# `./just desktop …`: the desktop client against ./just up. The client trusts only the entitlement
# keys it is given (crates/desktop-client/README.md, "Pinned keys"), so this pins the development
# server's key: saved from its JWKS while it answers, the saved copy kept for offline runs.
set -euo pipefail
cd "$(dirname "$0")/.."
keys=data/dev-jwks.json
url="${CLOSEWISE_URL:-http://localhost:8080}"
mkdir -p data
if command -v curl >/dev/null && curl -fsS "$url/.well-known/jwks.json" -o "$keys.tmp" 2>/dev/null; then
  mv "$keys.tmp" "$keys"
else
  rm -f "$keys.tmp"
fi
# A file named at run time; CLOSEWISE_ENTITLEMENT_JWKS is the build's own key list (a JWKS, read by
# the compiler), so it must not hold a path.
if [ -z "${CLOSEWISE_ENTITLEMENT_JWKS_FILE:-}" ] && [ -f "$keys" ]; then
  export CLOSEWISE_ENTITLEMENT_JWKS_FILE="$PWD/$keys"
fi
exec cargo run -q -p closewise-desktop-client --bin closewise-desktop -- "$@"
