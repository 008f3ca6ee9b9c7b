#!/usr/bin/env bash
# Every test, as CI runs it: the recipes below in turn, stopping at the first that fails. Each
# recipe's wall time is printed as it ends, and the table (with the total) is printed at the end
# and written to target/test-times.txt, so a slower suite shows the day it lands.
# The order shares the builds: lint-build makes the debug build (scripts/debug-build.sh) with
# clippy's lints compiled into it (scripts/lint-build.sh: clippy needs no check build of every
# dependency of its own), which test-rust runs and the stripe-node, resilience, SCIM and e2e runs
# start without compiling; the clippy wrapper is exported for the whole run so that every later
# cargo command reuses that build. test-web builds web/dist, which e2e serves as it is
# (WEB_BUILT=1) instead of building it again.
# Three kinds of overlap, all shown in the table (with the share of the two cores each kept busy):
# - cargo-nextest compiles in the background from the start (scripts/install-nextest.sh), beside
#   check-deploy's linters and lint-build; test-rust waits for it;
# - the web's and e2e's npm packages and Chromium install in the background after check-deploy (npm ci
#   and apt-get mostly wait on the network while lint-build and test-rust keep the cores busy); test-web
#   waits for them;
# - recipes joined by "+" run side by side, each one client process talking to its own API (e.g.
#   schemathesis and scim2-tester), so together they fill the two cores that either leaves half idle.
#   Their output goes to target/test-logs/<recipe>.log, printed in full when the recipe fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/clippy-env.sh
source scripts/clippy-env.sh
stages=(check-deploy lint-build test-rust test-stripe-node test-web test-resilience+test-scim e2e)
mkdir -p target/test-logs
times=target/test-times.txt
logs=target/test-logs
table=$(mktemp)
trap 'rm -f "$table"' EXIT
status=0

row() { printf '%-18s %6s s  %s\n' "$1" "$2" "$3"; }

# The machine's CPU counters (/proc/stat: busy and total jiffies), and the share of both cores a recipe
# kept busy between two readings: a recipe well under 100 % leaves a core idle that another could use.
cpu_now() { awk '/^cpu /{ idle = $5 + $6; total = 0; for (i = 2; i <= NF; i++) total += $i; print total - idle, total }' /proc/stat; }
busy_since() {
  local before after
  read -r -a before <<<"$1"
  read -r -a after <<<"$(cpu_now)"
  awk -v b="$((after[0] - before[0]))" -v t="$((after[1] - before[1]))" 'BEGIN { printf "cpu %d %%", (t > 0 ? 100 * b / t : 0) }'
}

start=$SECONDS
start_cpu=$(cpu_now)
# The machine's load when the run began: a run that started on a busy machine (another build, a
# browser left running) is slower for that, and the table says so.
start_load=$(cut -d' ' -f1 /proc/loadavg)

# Started once check-deploy is done: it runs apt-get itself, and two at once would fight over apt's lock.
installs=""
start_installs() {
  echo "==> installing the web's and e2e's packages and Chromium in the background (log: $logs/installs.log)"
  (
    began=$SECONDS
    scripts/web-deps.sh && scripts/e2e-deps.sh --background
    code=$?
    echo $((SECONDS - began)) >"$logs/installs.seconds"
    exit "$code"
  ) >"$logs/installs.log" 2>&1 &
  installs=$!
}
installs_waited=0

# cargo-nextest, compiled once into target/tools (scripts/install-nextest.sh): started at the beginning,
# beside check-deploy, whose linters mostly wait on the network; test-rust waits for it.
tools_began=$SECONDS
scripts/install-nextest.sh >"$logs/install-nextest.log" 2>&1 &
tools=$!
wait_for_tools() {
  [ -n "$tools" ] || return 0
  if wait "$tools"; then result=passed; else result=FAILED; fi
  tools=""
  line=$(row "nextest (bg)" $((SECONDS - tools_began)) "$result, from the start of the run until test-rust")
  echo "==> $line"
  echo "$line" >>"$table"
  if [ "$result" = FAILED ]; then
    cat "$logs/install-nextest.log"
    return 1
  fi
}

wait_for_installs() {
  [ "$installs_waited" = 0 ] && [ -n "$installs" ] || return 0
  installs_waited=1
  if wait "$installs"; then result=passed; else result=FAILED; fi
  line=$(row "installs (bg)" "$(cat "$logs/installs.seconds" 2>/dev/null || echo '?')" "$result, alongside lint-build and the recipes up to test-web")
  echo "==> $line"
  echo "$line" >>"$table"
  if [ "$result" = FAILED ]; then
    echo "==> the background installs failed; their log ($logs/installs.log):"
    cat "$logs/installs.log"
    return 1
  fi
}

for stage in "${stages[@]}"; do
  IFS=+ read -r -a recipes <<<"$stage"
  if [[ " ${recipes[*]} " == *" test-web "* ]] || [[ " ${recipes[*]} " == *" e2e "* ]]; then
    wait_for_installs || { status=1; break; }
  fi
  if [[ " ${recipes[*]} " == *" test-rust "* ]]; then
    wait_for_tools || { status=1; break; }
  fi
  if [ "${#recipes[@]}" = 1 ]; then
    recipe=${recipes[0]}
    began=$SECONDS
    cpu=$(cpu_now)
    if just "$recipe"; then result=passed; else result=FAILED; status=1; fi
    line=$(row "$recipe" $((SECONDS - began)) "$result, $(busy_since "$cpu")")
    echo "==> $line"
    echo "$line" >>"$table"
  else
    echo "==> side by side: ${recipes[*]} (logs: $logs/<recipe>.log)"
    cpu=$(cpu_now)
    stage_began=$SECONDS
    pids=()
    for recipe in "${recipes[@]}"; do
      (
        began=$SECONDS
        just "$recipe" >"$logs/$recipe.log" 2>&1
        code=$?
        echo $((SECONDS - began)) >"$logs/$recipe.seconds"
        exit "$code"
      ) &
      pids+=($!)
    done
    for i in "${!recipes[@]}"; do
      recipe=${recipes[$i]}
      if wait "${pids[$i]}"; then result=passed; else result=FAILED; status=1; fi
      others=$(printf '%s\n' "${recipes[@]}" | grep -vx "$recipe" | paste -sd, -)
      line=$(row "$recipe" "$(cat "$logs/$recipe.seconds")" "$result, alongside $others")
      if [ "$result" = FAILED ]; then
        echo "==> $recipe FAILED; its log ($logs/$recipe.log):"
        cat "$logs/$recipe.log"
      else
        echo "==> $recipe: $(tail -n 1 "$logs/$recipe.log")"
      fi
      echo "==> $line"
      echo "$line" >>"$table"
    done
    line=$(row "  (together)" $((SECONDS - stage_began)) "$(busy_since "$cpu")")
    echo "==> $line"
    echo "$line" >>"$table"
  fi
  if [[ " ${recipes[*]} " == *" test-web "* ]] && [ "$status" -eq 0 ]; then export WEB_BUILT=1; fi
  [ "$status" -eq 0 ] || break
  if [ "$stage" = check-deploy ]; then start_installs; fi
done
[ -z "$tools" ] || wait "$tools" 2>/dev/null
# Stopped before test-web: the installs still finish (a half-done npm ci would be redone next time anyway).
[ "$installs_waited" = 1 ] || [ -z "$installs" ] || wait "$installs" 2>/dev/null
row total $((SECONDS - start)) "$(busy_since "$start_cpu")" >>"$table"
{
  echo "./just test on $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $start_load at the start"
  cat "$table"
} >"$times"
echo
echo "==> wall time of each recipe (also in $times):"
cat "$times"
exit "$status"
