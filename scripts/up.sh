#!/usr/bin/env bash
# Builds the web app and the binaries, then starts stripe-mock and the API together on local
# defaults: SQLite under data/, mail kept in the outbox, webhooks from stripe-mock to the API.
# Ctrl-C stops both. Data (database, signing key, stripe-mock state) survives restarts in data/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/web-deps.sh
echo "==> building the web app"
(cd web && npm run build)
echo "==> building the API and stripe-mock"
scripts/build-deps.sh
cargo build -p closewise-api -p stripe-mock
mkdir -p data
bin="${CARGO_TARGET_DIR:-target}/debug"
addr="${APP_ADDR:-127.0.0.1:8080}"
mock_port="${STRIPE_MOCK_PORT:-12111}"
pids=()
stop() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  echo "==> stopped"
}
# Ctrl-C is how people stop it: a clean stop, not a failed recipe.
trap 'stop; exit 0' INT TERM
trap stop EXIT
"$bin/stripe-mock" --port "$mock_port" \
  --webhook-url "http://$addr/api/stripe/webhook" \
  --state-file data/stripe-mock.json &
pids+=($!)
STRIPE_API_BASE="${STRIPE_API_BASE:-http://127.0.0.1:$mock_port}" APP_ADDR="$addr" "$bin/closewise-api" &
pids+=($!)
for _ in $(seq 1 60); do
  if curl -fsS "http://$addr/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
base="${APP_BASE_URL:-http://localhost:${addr##*:}}"
cat <<MSG

  Closewise is running at $base
  Mail (no SMTP configured) is kept in the outbox: $base/dev/mail
  Local Stripe (stripe-mock) at http://127.0.0.1:$mock_port — test card 4242 4242 4242 4242
  Press Ctrl-C to stop.

MSG
wait -n "${pids[@]}"
