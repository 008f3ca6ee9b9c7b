#!/usr/bin/env bash
# Runs the Node compatibility suite: Stripe's official Node library (`stripe` from npm, pinned in
# package-lock.json, unchanged) drives a real stripe-mock binary through a subscription's whole
# life. Starts the mock on a free port with webhooks pointed at the suite, runs `node --test`,
# stops the mock. Needs Node 20.19+ and, the first time, the npm registry.
#
#   STRIPE_MOCK_BIN=/path/to/stripe-mock crates/stripe-mock/node-compat/run.sh
#
# Without STRIPE_MOCK_BIN the binary is built with cargo (CARGO_TARGET_DIR is respected).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$here"

# Bounded: the suite itself takes seconds; this is the ceiling for the whole run.
limit="${NODE_COMPAT_TIMEOUT:-110}"

if [[ -z "${STRIPE_MOCK_BIN:-}" ]]; then
  (cd "$repo" && cargo build -q -p stripe-mock --bin stripe-mock)
  STRIPE_MOCK_BIN="${CARGO_TARGET_DIR:-$repo/target}/debug/stripe-mock"
fi
[[ -x "$STRIPE_MOCK_BIN" ]] || { echo "node-compat: no stripe-mock binary at $STRIPE_MOCK_BIN" >&2; exit 1; }

# npm ci when node_modules is missing or older than the lock file.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

free_port() {
  node -e 'const s = require("node:net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'
}
mock_port="$(free_port)"
hook_port="$(free_port)"
while [[ "$hook_port" == "$mock_port" ]]; do hook_port="$(free_port)"; done

log="$(mktemp -t stripe-mock-node-compat.XXXXXX.log)"
secret_key="sk_test_node_compat_$RANDOM$RANDOM"
webhook_secret="whsec_node_compat_$RANDOM$RANDOM"
"$STRIPE_MOCK_BIN" --host 127.0.0.1 --port "$mock_port" \
  --secret-key "$secret_key" --webhook-secret "$webhook_secret" \
  --webhook-url "http://127.0.0.1:$hook_port/hook" >"$log" 2>&1 &
mock_pid=$!
stop() {
  kill "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
}
trap stop EXIT

for _ in $(seq 1 100); do
  if node -e 'fetch(process.argv[1]).then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))' \
    "http://127.0.0.1:$mock_port/_mock/health"; then
    break
  fi
  if ! kill -0 "$mock_pid" 2>/dev/null; then
    echo "node-compat: stripe-mock exited; its log:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done

status=0
STRIPE_MOCK_PORT="$mock_port" STRIPE_MOCK_HOOK_PORT="$hook_port" \
  STRIPE_MOCK_SECRET_KEY="$secret_key" STRIPE_MOCK_WEBHOOK_SECRET="$webhook_secret" \
  timeout --kill-after=5 "$limit" node --test --test-concurrency=1 --test-timeout=60000 compat.test.mjs || status=$?
if [[ $status -ne 0 ]]; then
  echo "node-compat: failed ($status); stripe-mock's log: $log" >&2
  tail -n 40 "$log" >&2
else
  rm -f "$log"
fi
exit "$status"
