# Sourced by scripts/bench.sh: the team-scale rows. Needs API, DB, WORK, BIN_DIR,
# DATABASE_URL, PASSWORD and `run` from bench.sh.
#
# Per size in BENCH_TEAM_SIZES (default "10 100 1000" members) one team is built once, in bulk,
# by `closewise db seed-team` (Store::seed_team_fixture): a year of calls (100 per member: 100,000
# at 1,000), 10 audit rows and 0.2 pending invites per member (10,000 and 200 at 1,000). Its owner
# buys seats through stripe-mock (for the seat preview); then each team endpoint runs for
# BENCH_TEAM_SECONDS on BENCH_TEAM_CONNECTIONS connections and prints its row as "NAME @N".

TEAM_SECONDS="${BENCH_TEAM_SECONDS:-2}"
TEAM_CONNS="${BENCH_TEAM_CONNECTIONS:-4}"
TEAM_SIZES="${BENCH_TEAM_SIZES:-10 100 1000}"

json_field() { python3 -c 'import json,sys; v=json.load(sys.stdin); [v := v[k] for k in sys.argv[1:]]; print(v)' "$@"; }

password_token() {
  curl -fsS -H 'content-type: application/json' -d "{\"email\":\"$1\",\"password\":\"$PASSWORD\"}" \
    "$API/api/auth/token?grant_type=password" | json_field access_token
}

# seed_team N: builds the team of N members; prints "owner_email member_email seconds".
seed_team() {
  local n="$1" started out
  started="$(date +%s.%N)"
  out="$(env DATABASE_URL="$DATABASE_URL" SEED_PASSWORD="$PASSWORD" CLOSEWISE_ACTOR=bench \
    "$BIN_DIR/closewise" db seed-team --members "$n" --calls "$((n * 100))" --audit "$((n * 10))" \
    --invites "$((n / 5))" --prefix "t$n" --json --yes 2>"$WORK/seed-$n.log")" \
    || { cat "$WORK/seed-$n.log" >&2; return 1; }
  printf '%s %s %s\n' "$(printf '%s' "$out" | json_field owner_email)" \
    "$(printf '%s' "$out" | json_field member_email)" \
    "$(python3 -c "import time; print('%.1f' % (time.time() - $started))")"
}

# buy_seats TOKEN SEATS: a team checkout paid on stripe-mock's page and confirmed.
buy_seats() {
  local token="$1" seats="$2" url session
  url="$(curl -fsS -H "authorization: Bearer $token" -H 'content-type: application/json' \
    -d "{\"seats\":$seats,\"success_url\":\"$API/team?checkout=success&session_id={CHECKOUT_SESSION_ID}\",\"cancel_url\":\"$API/team\"}" \
    "$API/api/team/checkout" | json_field url)"
  session="${url##*/}"
  curl -fsS -o /dev/null --data-urlencode "email=bench@example.com" --data-urlencode "cardnumber=4242 4242 4242 4242" \
    --data-urlencode "exp=12 / 34" --data-urlencode "cvc=123" --data-urlencode "name=Bench" "$url"
  curl -fsS -o /dev/null -H "authorization: Bearer $token" -H 'content-type: application/json' \
    -d "{\"session_id\":\"$session\"}" "$API/api/team/checkout/confirm"
}

# must_answer TOKEN PATH: the row measures answers, not refusals.
must_answer() {
  curl -fsS -o /dev/null -H "authorization: Bearer $1" "$API$2" \
    || { echo "ERROR: $2 did not answer 200 before its run" >&2; return 1; }
}

team_rows() {
  local n owner member secs owner_token member_token seats
  for n in $TEAM_SIZES; do
    read -r owner member secs < <(seed_team "$n")
    echo "    $DB: team of $n members built in ${secs} s ($((n * 100)) calls, $((n * 10)) audit rows, $((n / 5)) invites)"
    printf '{"name":"fixture @%s","db":"%s","build_seconds":%s}\n' "$n" "$DB" "$secs" >>"$OUT/fixtures.jsonl"
    owner_token="$(password_token "$owner")"
    member_token="$(password_token "$member")"
    seats=$((n + n / 5))
    # A team buys at most 10,000 seats (teams::MAX_SEATS): 1,000 members with 200 pending
    # invites buy their 1,200 like any other team, and every size has its preview row.
    local preview=""
    if [ "$seats" -le 10000 ]; then
      buy_seats "$owner_token" "$seats"
      preview="/api/team/seats/preview?seats=$((seats + 1))"
    else
      echo "    $DB: no seat preview at $n members: $seats seats in use, over the 10,000 a team can buy"
    fi
    local -a conn=(-t 1 -c "$TEAM_CONNS" -d "${TEAM_SECONDS}s")
    for path in /api/team /api/team/members /api/team/invites $preview /api/team/adoption /api/team/audit; do
      must_answer "$owner_token" "$path"
    done
    must_answer "$member_token" /api/entitlements
    BENCH_TOKEN="$owner_token" run "GET /api/team @$n" "$DB" get.lua /api/team "${conn[@]}"
    BENCH_TOKEN="$owner_token" run "GET /api/team/members @$n" "$DB" get.lua /api/team/members "${conn[@]}"
    BENCH_TOKEN="$owner_token" run "GET /api/team/invites @$n" "$DB" get.lua /api/team/invites "${conn[@]}"
    if [ -n "$preview" ]; then
      BENCH_TOKEN="$owner_token" run "GET /api/team/seats/preview @$n" "$DB" get.lua "$preview" "${conn[@]}"
    fi
    BENCH_TOKEN="$member_token" run "GET /api/entitlements (member) @$n" "$DB" get.lua /api/entitlements "${conn[@]}"
    BENCH_TOKEN="$owner_token" run "GET /api/team/adoption @$n" "$DB" get.lua /api/team/adoption "${conn[@]}"
    BENCH_TOKEN="$owner_token" run "GET /api/team/audit @$n" "$DB" get.lua /api/team/audit "${conn[@]}"
  done
}
