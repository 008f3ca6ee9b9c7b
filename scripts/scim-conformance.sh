#!/usr/bin/env bash
# SCIM conformance: the scim2-tester checker (PyPI) against /scim/v2 of a debug build
# of closewise-api on a free port with a fresh SQLite database, as a team's identity provider:
# a team with 1000 seats, its domain scim.test verified, one SCIM token. Fails on any failed check
# (ERROR or CRITICAL; see scripts/scim_conformance.py). Bounded: the checker's run takes seconds;
# the whole script is stopped after SCIM_TIME_LIMIT (default 110) seconds once the API is up.
# Installs scim2-tester (and the httpx2 engine its client uses) into target/tools/ the first time.
#
#   scripts/scim-conformance.sh
set -euo pipefail
cd "$(dirname "$0")/.."
TESTER_VERSION="0.5.2"
HTTPX2_VERSION="2.16.2"
VENV="target/tools/scim2-tester"
TIME_LIMIT="${SCIM_TIME_LIMIT:-110}"

if ! "$VENV/bin/pip" show scim2-tester 2>/dev/null | grep -q "^Version: $TESTER_VERSION$"; then
  echo "==> installing scim2-tester $TESTER_VERSION into $VENV"
  command -v python3 >/dev/null || { echo "ERROR: python3 is needed for scim2-tester" >&2; exit 1; }
  python3 -m venv "$VENV" || { echo "ERROR: python3 -m venv failed (install python3-venv)" >&2; exit 1; }
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    "scim2-tester==$TESTER_VERSION" "httpx2==$HTTPX2_VERSION" \
    || { echo "ERROR: cannot install scim2-tester from PyPI" >&2; exit 1; }
fi

# closewise-api and stripe-mock as test-rust built them (nothing to compile after it).
scripts/debug-build.sh
BIN_DIR="${CARGO_TARGET_DIR:-target}/debug"
DB=sqlite
# shellcheck source=bench/serve.sh
source bench/serve.sh
trap stop_stack EXIT
start_stack
echo "==> API at $API ($DB)"

DOMAIN="scim.test"
SESSION="$(signed_in_session "owner@$DOMAIN" "Scim-conformance-42")"
ACCESS="$(printf '%s' "$SESSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
curl -fsS -H "Authorization: Bearer $ACCESS" -H 'content-type: application/json' \
  -d '{"name":"SCIM conformance"}' "$API/api/team" >/dev/null
# Seats and the verified domain straight in the throw-away database: an operator's seats and
# the domains service's DNS check are not what this run is about.
python3 - "$WORK/closewise.db" "$DOMAIN" <<'PY'
import sqlite3, sys, uuid
db = sqlite3.connect(sys.argv[1])
db.execute("UPDATE teams SET seats = 1000")
db.execute(
    "INSERT INTO team_domains (id, team_id, domain, txt_token, status, created_by, created_at, "
    "verified_at, last_checked_at, last_seen_at) SELECT ?, id, ?, 'conformance', 'verified', "
    "owner_id, created_at, created_at, created_at, created_at FROM teams",
    (uuid.uuid4().bytes, sys.argv[2]),
)
db.commit()
PY
TOKEN="$(curl -fsS -X POST -H "Authorization: Bearer $ACCESS" -H 'Content-Type: application/json' \
  -d '{"name": "scim2-tester"}' "$API/api/team/scim/tokens" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"

echo "==> scim2-tester $TESTER_VERSION against $API/scim/v2"
set +e
API="$API" TOKEN="$TOKEN" DOMAIN="$DOMAIN" timeout "$TIME_LIMIT" "$VENV/bin/python" scripts/scim_conformance.py
status=$?
set -e
if [ "$status" -eq 124 ]; then
  echo "ERROR: scim2-tester did not finish within $TIME_LIMIT s" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "ERROR: scim2-tester found problems (above); the API log's last lines:" >&2
  tail -n 30 "$WORK/api.log" >&2 || true
  exit "$status"
fi
