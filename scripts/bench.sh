#!/usr/bin/env bash
# `just bench`: a release build of the API under wrk on loopback, on SQLite and on PostgreSQL,
# and one table with requests/s, p50, p99, server CPU-ms per request, peak memory and the targets
# (figures, not pass/fail). Also the raw argon2id rate of the machine and a mixed run (sign-in
# saturated while GET /api/plan runs alongside). Then the team pages at 10, 100 and 1,000
# members (bench/team.sh: one bulk-built team per size). Results: target/bench/results.jsonl.
# Under 5 minutes on a 2-core machine once the release build is there.
#
#   scripts/bench.sh                      # both databases, 5 s per endpoint, 32 connections
#   BENCH_DBS=sqlite BENCH_SECONDS=3 BENCH_TEAM_SIZES="10 1000" scripts/bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN="${BENCH_SECONDS:-5}"
CONNS="${BENCH_CONNECTIONS:-32}"
THREADS="${BENCH_THREADS:-2}"
DBS="${BENCH_DBS:-sqlite postgres}"
OUT="target/bench"
mkdir -p "$OUT"
RESULTS="$OUT/results.jsonl"
: >"$RESULTS"
: >"$OUT/fixtures.jsonl"

need() { command -v "$1" >/dev/null 2>&1; }
if ! need wrk; then
  echo "==> installing wrk (Debian package)"
  if need apt-get; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get install -y -q wrk >/dev/null || { echo "ERROR: cannot install wrk with apt-get" >&2; exit 1; }
  else
    echo "ERROR: wrk is missing and apt-get is not available; install wrk" >&2; exit 1
  fi
fi
for tool in curl python3; do need "$tool" || { echo "ERROR: $tool is needed" >&2; exit 1; }; done
if [[ " $DBS " == *" postgres "* ]]; then
  scripts/ensure-postgres.sh
  need psql || { echo "ERROR: psql is needed for the PostgreSQL run" >&2; exit 1; }
fi

BIN_DIR="${BENCH_BIN_DIR:-${CARGO_TARGET_DIR:-target}/release}"   # BENCH_BIN_DIR=target/debug only to try the script out
if [ "$BIN_DIR" = "${CARGO_TARGET_DIR:-target}/release" ]; then
  echo "==> release build (closewise-api, closewise, stripe-mock)"
  scripts/build-deps.sh
  cargo build --release -q -p closewise-api -p closewise-cli -p stripe-mock
fi
echo "==> building bench/argon2-rate"
cargo build --release -q --manifest-path bench/argon2-rate/Cargo.toml --target-dir target/bench-tools

BENCH_STARTED="$(date +%s)"   # the runs themselves: the five-minute budget starts after the build
echo "==> raw argon2id rate (the API's two lanes at once, and one lane per core)"
target/bench-tools/release/argon2-rate 4 | tee "$OUT/argon2.json"

CLK_TCK="$(getconf CLK_TCK)"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$1/status"; }
reset_hwm() { echo 5 >"/proc/$1/clear_refs" 2>/dev/null || true; }

# run NAME DB SCRIPT PATH [wrk args...] — one wrk run, its figures and the server's CPU and memory.
run() {
  local name="$1" db="$2" script="$3" path="$4"; shift 4
  reset_hwm "$API_PID"
  local before after figures
  before="$(cpu_ticks "$API_PID")"
  figures="$(wrk --latency -d "${SECONDS_PER_RUN}s" --timeout 10s "$@" -s "bench/wrk/$script" "$API$path" | grep '^{"requests"' || true)"
  after="$(cpu_ticks "$API_PID")"
  if [ -z "$figures" ]; then echo "ERROR: wrk gave no figures for $name" >&2; exit 1; fi
  python3 - "$name" "$db" "$figures" "$before" "$after" "$CLK_TCK" "$(hwm_kib "$API_PID")" >>"$RESULTS" <<'PY'
import json, sys
name, db, figures, before, after, tck, hwm = sys.argv[1:]
f = json.loads(figures)
f.update(name=name, db=db,
         cpu_ms_per_req=(int(after) - int(before)) * 1000 / int(tck) / max(f["requests"], 1),
         peak_mib=int(hwm) / 1024)
print(json.dumps(f))
PY
  tail -n1 "$RESULTS" | python3 -c 'import json,sys; f=json.load(sys.stdin); print("    %-8s %-36s %9.0f req/s  p50 %.2f ms  p99 %.2f ms  errors %d" % (f["db"], f["name"], f["rps"], f["p50_ms"], f["p99_ms"], f["errors_status"]))'
}

# shellcheck source=bench/serve.sh
source bench/serve.sh
# shellcheck source=bench/team.sh
source bench/team.sh
trap stop_stack EXIT
export API_LOG="info,sqlx=warn,tower_http=info"   # the API's default log filter
for DB in $DBS; do
  echo "==> $DB: starting the API ($BIN_DIR) and stripe-mock"
  start_stack
  PASSWORD="Bench-password-42"
  SESSION="$(signed_in_session "reader@example.com" "$PASSWORD")"
  export BENCH_TOKEN
  BENCH_TOKEN="$(printf '%s' "$SESSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
  export BENCH_EMAIL="reader@example.com" BENCH_PASSWORD="$PASSWORD" BENCH_RUN="$RANDOM$RANDOM" BENCH_THREADS="$THREADS"
  # One session per refresh chain.
  export BENCH_REFRESH_FILE="$WORK/refresh.txt"
  for _ in $(seq 1 "$CONNS"); do
    curl -fsS -H 'content-type: application/json' -d "{\"email\":\"$BENCH_EMAIL\",\"password\":\"$PASSWORD\"}" \
      "$API/api/auth/token?grant_type=password" | python3 -c 'import json,sys; print(json.load(sys.stdin)["refresh_token"])'
  done >"$BENCH_REFRESH_FILE"

  run healthz "$DB" get.lua /healthz -t "$THREADS" -c "$CONNS"
  BENCH_TOKEN_SAVED="$BENCH_TOKEN"
  run "GET /api/auth/user" "$DB" get.lua /api/auth/user -t "$THREADS" -c "$CONNS"
  run "GET /api/plan" "$DB" get.lua /api/plan -t "$THREADS" -c "$CONNS"
  run "GET /api/subscription" "$DB" get.lua /api/subscription -t "$THREADS" -c "$CONNS"
  run "GET /api/entitlements" "$DB" get.lua /api/entitlements -t "$THREADS" -c "$CONNS"
  run "token refresh" "$DB" refresh.lua / -t "$CONNS" -c "$CONNS"
  run "sign-in" "$DB" signin.lua / -t "$THREADS" -c "$CONNS"
  run "sign-up" "$DB" signup.lua / -t "$THREADS" -c "$CONNS"
  export BENCH_EVENTS_FILE="$WORK/events.tsv"
  python3 bench/events.py "whsec_closewise_local" 60000 "$BENCH_RUN" >"$BENCH_EVENTS_FILE"
  run "webhook ingestion" "$DB" webhook.lua / -t "$THREADS" -c "$CONNS"

  echo "==> $DB: mixed run — sign-in saturated ($CONNS connections) while GET /api/plan runs (4 connections)"
  BENCH_TOKEN="" wrk -d "${SECONDS_PER_RUN}s" --timeout 10s -t 1 -c "$CONNS" -s bench/wrk/signin.lua "$API/" >"$WORK/mixed-signin.txt" &
  flood=$!
  sleep 1
  BENCH_TOKEN="$BENCH_TOKEN_SAVED" run "GET /api/plan (mixed)" "$DB" get.lua /api/plan -t 1 -c 4 -d "$(( SECONDS_PER_RUN > 4 ? SECONDS_PER_RUN - 2 : 2 ))s"
  wait "$flood"
  grep '^{"requests"' "$WORK/mixed-signin.txt" | python3 -c '
import json, sys
f = json.loads(sys.stdin.read()); f.update(name="sign-in (mixed)", db=sys.argv[1], cpu_ms_per_req=None, peak_mib=None)
print(json.dumps(f))' "$DB" >>"$RESULTS"

  echo "==> $DB: team pages at ${TEAM_SIZES// /, } members ($TEAM_CONNS connections, ${TEAM_SECONDS} s each)"
  team_rows
  stop_stack
done

python3 bench/report.py "$RESULTS" "$OUT/argon2.json" "$CONNS" "$OUT/fixtures.jsonl" "$TEAM_CONNS" | tee "$OUT/table.md"
echo "bench: $(( $(date +%s) - BENCH_STARTED )) s after the build"
