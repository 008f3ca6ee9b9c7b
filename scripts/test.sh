#!/usr/bin/env bash
# Every test, as CI runs it: the recipes below in turn, stopping at the first that fails. Each
# recipe's wall time is printed as it ends, and the table (with the total) is printed at the end
# and written to target/test-times.txt, so a slower suite shows the day it lands.
# The order shares the builds: test-rust makes the debug build (scripts/debug-build.sh) that the
# stripe-node, resilience, SCIM and e2e runs start without compiling, and test-web builds web/dist,
# which e2e serves as it is (WEB_BUILT=1) instead of building it again.
set -uo pipefail
cd "$(dirname "$0")/.."
recipes=(lint check-deploy test-rust test-stripe-node test-web test-resilience test-scim e2e)
mkdir -p target
times=target/test-times.txt
table=$(mktemp)
trap 'rm -f "$table"' EXIT
start=$SECONDS
status=0
for recipe in "${recipes[@]}"; do
  began=$SECONDS
  if just "$recipe"; then result=passed; else result=FAILED; status=1; fi
  if [ "$recipe" = test-web ] && [ "$status" -eq 0 ]; then export WEB_BUILT=1; fi
  line=$(printf '%-18s %6s s  %s' "$recipe" $((SECONDS - began)) "$result")
  echo "==> $line"
  echo "$line" >>"$table"
  [ "$status" -eq 0 ] || break
done
printf '%-18s %6s s\n' total $((SECONDS - start)) >>"$table"
{
  echo "./just test on $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
  cat "$table"
} >"$times"
echo
echo "==> wall time of each recipe (also in $times):"
cat "$times"
exit "$status"
