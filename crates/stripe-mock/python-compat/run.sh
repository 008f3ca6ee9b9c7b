#!/usr/bin/env bash
# Runs the Python compatibility suite: Stripe's official Python library (`stripe` from PyPI,
# pinned in requirements.txt, unchanged) creates, lists and retrieves coupons, promotion codes,
# tax IDs and invoices on a real stripe-mock binary. Installs the library into a venv under the
# cargo target directory (again only when requirements.txt changes), starts the mock on a free
# port, runs the suite with unittest, stops the mock. Needs Python 3.9+ with venv and, the first
# time, PyPI.
#
#   STRIPE_MOCK_BIN=/path/to/stripe-mock crates/stripe-mock/python-compat/run.sh
#
# Without STRIPE_MOCK_BIN the binary is built with cargo (CARGO_TARGET_DIR is respected).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$here"

# Bounded: the suite itself takes a second or two; this is the ceiling for the whole run.
limit="${PYTHON_COMPAT_TIMEOUT:-60}"
target="${CARGO_TARGET_DIR:-$repo/target}"

if [[ -z "${STRIPE_MOCK_BIN:-}" ]]; then
  (cd "$repo" && cargo build -q -p stripe-mock --bin stripe-mock)
  STRIPE_MOCK_BIN="$target/debug/stripe-mock"
fi
[[ -x "$STRIPE_MOCK_BIN" ]] || { echo "python-compat: no stripe-mock binary at $STRIPE_MOCK_BIN" >&2; exit 1; }

venv="$target/python-compat-venv"
stamp="$venv/.requirements"
if [[ ! -x "$venv/bin/python" || ! -f "$stamp" ]] || ! cmp -s requirements.txt "$stamp"; then
  command -v python3 >/dev/null 2>&1 || { echo "python-compat: python3 is needed" >&2; exit 1; }
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "python-compat: python3 -m venv failed (on Debian: apt-get install python3-venv)" >&2; exit 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-deps -r requirements.txt
  cp requirements.txt "$stamp"
fi

free_port() {
  "$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
mock_port="$(free_port)"

log="$(mktemp -t stripe-mock-python-compat.XXXXXX.log)"
secret_key="sk_test_python_compat_$RANDOM$RANDOM"
"$STRIPE_MOCK_BIN" --host 127.0.0.1 --port "$mock_port" --secret-key "$secret_key" >"$log" 2>&1 &
mock_pid=$!
stop() {
  kill "$mock_pid" 2>/dev/null || true
  wait "$mock_pid" 2>/dev/null || true
}
trap stop EXIT

for _ in $(seq 1 100); do
  if "$venv/bin/python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=1)' \
    "http://127.0.0.1:$mock_port/_mock/health" 2>/dev/null; then
    break
  fi
  if ! kill -0 "$mock_pid" 2>/dev/null; then
    echo "python-compat: stripe-mock exited; its log:" >&2
    cat "$log" >&2
    exit 1
  fi
  sleep 0.1
done

status=0
STRIPE_MOCK_PORT="$mock_port" STRIPE_MOCK_SECRET_KEY="$secret_key" \
  timeout --kill-after=5 "$limit" "$venv/bin/python" -m unittest -v compat_test || status=$?
if [[ $status -ne 0 ]]; then
  echo "python-compat: failed ($status); stripe-mock's log: $log" >&2
  tail -n 40 "$log" >&2
else
  rm -f "$log"
fi
exit "$status"
