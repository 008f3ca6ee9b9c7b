# Shared by scripts/resilience.sh and scripts/bench.sh (sourced, not run): start stripe-mock and
# closewise-api on free ports with a throw-away data folder, and stop them again.
# Needs: BIN_DIR (where the binaries are), DB (sqlite|postgres). Sets: API, API_PID, MOCK_PID, WORK.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }

fresh_database_url() {
  # $1: sqlite|postgres
  if [ "$1" = postgres ]; then
    local admin="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
    local name="cw_bench_$$_$RANDOM"
    psql -q "$admin" -c "CREATE DATABASE $name" >/dev/null
    CREATED_DB="$admin|$name"
    echo "${admin%/*}/$name"
  else
    echo "sqlite://$WORK/closewise.db"
  fi
}

start_stack() {
  WORK="$(mktemp -d -t closewise-serve-XXXXXX)"
  local mock_port api_port
  mock_port="$(free_port)"
  api_port="$(free_port)"
  "$BIN_DIR/stripe-mock" --port "$mock_port" >"$WORK/stripe-mock.log" 2>&1 &
  MOCK_PID=$!
  DATABASE_URL="$(fresh_database_url "$DB")"
  API="http://127.0.0.1:$api_port"
  env APP_ADDR="127.0.0.1:$api_port" APP_BASE_URL="$API" DATA_DIR="$WORK" WEB_DIST="$WORK/web" \
    DATABASE_URL="$DATABASE_URL" STRIPE_API_BASE="http://127.0.0.1:$mock_port" \
    RATE_LIMIT_MAIL_PER_IP=100000000 RATE_LIMIT_MAIL_PER_EMAIL=100000000 \
    RATE_LIMIT_TOKEN_PER_IP=100000000 RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT=100000000 \
    RATE_LIMIT_FAILED_SIGNINS_PER_ACCOUNT_IP=100000000 \
    RUST_LOG="${API_LOG:-warn}" "$BIN_DIR/closewise-api" >"$WORK/api.log" 2>&1 &
  API_PID=$!
  for _ in $(seq 1 120); do
    if curl -fsS "$API/readyz" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$API_PID" 2>/dev/null; then
      echo "ERROR: closewise-api exited at start:" >&2; cat "$WORK/api.log" >&2; return 1
    fi
    sleep 0.25
  done
  echo "ERROR: closewise-api did not become ready at $API" >&2
  cat "$WORK/api.log" >&2
  return 1
}

stop_stack() {
  [ -n "${API_PID:-}" ] && kill -TERM "$API_PID" 2>/dev/null && wait "$API_PID" 2>/dev/null || true
  [ -n "${MOCK_PID:-}" ] && kill -TERM "$MOCK_PID" 2>/dev/null && wait "$MOCK_PID" 2>/dev/null || true
  API_PID="" MOCK_PID=""
  if [ -n "${CREATED_DB:-}" ]; then
    psql -q "${CREATED_DB%|*}" -c "DROP DATABASE IF EXISTS ${CREATED_DB#*|} WITH (FORCE)" >/dev/null 2>&1 || true
    CREATED_DB=""
  fi
  [ -n "${WORK:-}" ] && rm -rf "$WORK"
  WORK=""
}

# Signs up, verifies (through the development outbox) and signs in; prints the session JSON.
signed_in_session() {
  local email="$1" password="$2"
  curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$API/api/auth/signup" >/dev/null
  local token
  token="$(curl -fsS "$API/dev/mail.json?to=$email" | python3 -c 'import json,sys; print(json.load(sys.stdin)["mails"][0]["link"].split("token=")[1])')"
  curl -fsS -H 'content-type: application/json' -d "{\"token\":\"$token\"}" "$API/api/auth/verify" >/dev/null
  curl -fsS -H 'content-type: application/json' \
    -d "{\"email\":\"$email\",\"password\":\"$password\"}" "$API/api/auth/token?grant_type=password"
}
