#!/usr/bin/env bash
# The end-to-end suite (e2e/): Playwright driving Debian's Chromium against freshly built binaries and
# web app. Each Playwright worker starts its own stripe-mock and API on free ports with a fresh
# database (SQLite; the "postgres" project also a new database on the local PostgreSQL).
# Never skips: a missing browser is installed, anything that cannot be set up fails the run.
# Arguments go to `playwright test` (e.g. scripts/e2e.sh --project=sqlite tests/auth.spec.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
chromium="${E2E_CHROMIUM:-/usr/bin/chromium}"

# The browser (Debian's chromium, installed when missing) and e2e/'s packages.
scripts/e2e-deps.sh

# The PostgreSQL project needs the local server (started when it is down; fails loudly otherwise).
scripts/ensure-postgres.sh

# The SSO specs' identity providers (panva's oidc-provider, samlify's SAML IdP; shared with the API's Rust tests).
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
node scripts/e2e-times.mjs || true
echo "==> end-to-end suite finished in $(( $(date +%s) - start )) s (exit $status)"
if [ "$status" != 0 ]; then
  echo "==> failures: traces, screenshots and server logs are in $(pwd)/e2e/test-results/ (npx playwright show-trace <trace.zip>; HTML report: e2e/playwright-report/index.html)"
fi
exit "$status"
