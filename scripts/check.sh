#!/usr/bin/env bash
# The inner loop, for the many runs before the last one (`./just test`): formatting, clippy and the
# unit tests of the Rust crates the change touches, and for the web the type check, the changed
# files' lint and formatting and Vitest's tests related to them. "The change" is the work tree and
# untracked files against HEAD, or, when that is clean, the last commit; CHECK_BASE=<rev> names
# another base (e.g. origin/main).
set -euo pipefail
cd "$(dirname "$0")/.."
base="${CHECK_BASE:-HEAD}"
changed=$({ git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sort -u)
if [ -z "$changed" ] && [ -z "${CHECK_BASE:-}" ]; then
  base=HEAD~1
  changed=$(git diff --name-only "$base" | sort -u)
fi
if [ -z "$changed" ]; then
  echo "==> nothing changed against $base"
  exit 0
fi
echo "==> checking the change against $base ($(echo "$changed" | wc -l) files)"

# Rust: the packages whose folder holds a changed file (a change to the workspace's manifest or
# lock file touches them all).
packages=()
if echo "$changed" | grep -qE '^(Cargo\.toml|Cargo\.lock|rustfmt\.toml)$'; then
  packages=(--workspace)
else
  for dir in $(echo "$changed" | sed -n 's|^crates/\([^/]*\)/.*|\1|p' | sort -u); do
    manifest="crates/$dir/Cargo.toml"
    [ -f "$manifest" ] || continue
    packages+=(-p "$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$manifest" | head -n1)")
  done
fi
if [ "${#packages[@]}" -gt 0 ]; then
  echo "==> cargo fmt, clippy and unit tests: ${packages[*]}"
  scripts/build-deps.sh
  cargo fmt --all -- --check
  cargo clippy "${packages[@]}" --all-targets -- -D warnings
  cargo test "${packages[@]}" --lib --bins
fi

# The web: what its checks read of the changed files.
web_files=()
while IFS= read -r f; do
  [ -f "$f" ] && web_files+=("${f#web/}")
done < <(echo "$changed" | grep -E '^web/.*\.(ts|tsx|js|mjs|css|json|md)$' || true)
if [ "${#web_files[@]}" -gt 0 ]; then
  scripts/web-deps.sh
  echo "==> web: type check, lint and formatting of ${#web_files[@]} files, Vitest's related tests"
  (cd web && npm run -s typecheck)
  lintable=()
  for f in "${web_files[@]}"; do
    case "$f" in *.ts | *.tsx | *.js | *.mjs) lintable+=("$f") ;; esac
  done
  if [ "${#lintable[@]}" -gt 0 ]; then
    (cd web && npx eslint "${lintable[@]}")
    (cd web && npx vitest related --run --passWithNoTests "${lintable[@]}")
  fi
  (cd web && npx prettier --check "${web_files[@]}")
fi
echo "==> check passed"
