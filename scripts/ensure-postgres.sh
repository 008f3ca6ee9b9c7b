#!/usr/bin/env bash
# PostgreSQL tests never skip: start the local server when it is down, and fail loudly when it
# cannot be reached. TEST_POSTGRES_URL points the tests elsewhere.
set -euo pipefail
url="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
ready() { command -v pg_isready >/dev/null 2>&1 && pg_isready -q -d "$url"; }
if ready; then exit 0; fi
if [ -z "${TEST_POSTGRES_URL:-}" ] && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  echo "==> starting the local PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  for _ in $(seq 1 30); do ready && exit 0; sleep 1; done
fi
if ! command -v pg_isready >/dev/null 2>&1; then
  echo "ERROR: pg_isready not found; install PostgreSQL or set TEST_POSTGRES_URL to a reachable server." >&2
else
  echo "ERROR: PostgreSQL is not reachable at $url. The PostgreSQL tests cannot run; start it or set TEST_POSTGRES_URL." >&2
fi
exit 1
