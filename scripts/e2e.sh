#!/usr/bin/env bash
# The end-to-end suite (e2e/): Playwright driving Debian's Chromium against freshly built binaries and
# web app. Each Playwright worker starts its own stripe-mock and API on free ports with a fresh
# database (SQLite; the "postgres" project also a new database on the local PostgreSQL).
# Never skips: a missing browser is installed, anything that cannot be set up fails the run.
# Arguments go to `playwright test` (e.g. scripts/e2e.sh --project=sqlite tests/auth.spec.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
chromium="${E2E_CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$chromium" ]; then
  echo "==> $chromium is missing: installing Debian's chromium"
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "ERROR: $chromium is missing and this user cannot run apt-get (no root, no sudo). Install chromium or set E2E_CHROMIUM." >&2
      exit 1
    fi
  fi
  if ! { $sudo apt-get update && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y chromium; }; then
    echo "ERROR: installing chromium with apt-get failed; the end-to-end suite cannot run without a browser." >&2
    exit 1
  fi
  if [ ! -x "$chromium" ]; then
    echo "ERROR: apt-get installed chromium but $chromium is still missing; set E2E_CHROMIUM to its path." >&2
    exit 1
  fi
fi

# The PostgreSQL project needs the local server (started when it is down; fails loudly otherwise).
scripts/ensure-postgres.sh

# e2e/ packages from its lock file, when missing or older than the lock.
if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  echo "==> installing e2e/ packages (npm ci)"
  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
fi

# The SSO specs' identity provider (panva's oidc-provider, shared with the API's Rust tests).
scripts/oidc-deps.sh

scripts/web-deps.sh
# `./just test` has built web/dist in test-web a moment before (it sets WEB_BUILT=1): built once.
if [ "${WEB_BUILT:-}" = 1 ] && [ -f web/dist/index.html ]; then
  echo "==> the web app as test-web built it (web/dist)"
else
  echo "==> building the web app"
  (cd web && npm run build)
fi
# The API, stripe-mock, the CLI, the desktop client and the test DNS server, as test-rust built them.
scripts/debug-build.sh

echo "==> running the end-to-end suite (traces and screenshots of failures: e2e/test-results/)"
start=$(date +%s)
status=0
(cd e2e && E2E_CHROMIUM="$chromium" npx playwright test "$@") || status=$?
echo "==> end-to-end suite finished in $(( $(date +%s) - start )) s (exit $status)"
if [ "$status" != 0 ]; then
  echo "==> failures: traces, screenshots and server logs are in $(pwd)/e2e/test-results/ (npx playwright show-trace <trace.zip>; HTML report: e2e/playwright-report/index.html)"
fi
exit "$status"
