#!/usr/bin/env bash
# test-web's static checks: the route types generated, then the type check, ESLint (type-aware, so a
# second TypeScript program) and Prettier side by side. Each of them runs on one core; one after the
# other they left the second core idle for most of a minute. Each one's output is printed when it
# ends, and the script fails if any of them failed.
set -uo pipefail
cd "$(dirname "$0")/../web" || exit 1
npx react-router typegen || exit 1
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
declare -A pids
npx tsc >"$logs/tsc" 2>&1 &
pids[tsc]=$!
npx eslint . >"$logs/eslint" 2>&1 &
pids[eslint]=$!
npx prettier --check . >"$logs/prettier" 2>&1 &
pids[prettier]=$!
status=0
for name in tsc eslint prettier; do
  if wait "${pids[$name]}"; then result=passed; else result=FAILED; status=1; fi
  echo "==> $name: $result"
  if [ "$result" = FAILED ]; then cat "$logs/$name"; else tail -n 3 "$logs/$name"; fi
done
exit "$status"
