#!/usr/bin/env bash
# The Rust tests: every test of the workspace with cargo-nextest (each test its own process, the
# tests of all binaries in one queue, as many at once as there are cores; test groups and the
# retries of timing-sensitive tests in .config/nextest.toml, a retried pass reported as FLAKY),
# then the doctests, which nextest does not run. Arguments go to `cargo nextest run`
# (e.g. scripts/test-rust.sh -E 'binary_id(closewise-api::replicas)').
# Installs cargo-nextest into target/tools/cargo-nextest the first time, as ./just installs just.
set -euo pipefail
cd "$(dirname "$0")/.."
NEXTEST_VERSION="0.9.143"
TOOLS="${CARGO_TARGET_DIR:-target}/tools/cargo-nextest"
TOOLS="$(realpath -m "$TOOLS")"
export PATH="$TOOLS/bin:$HOME/.cargo/bin:$PATH"
if ! cargo nextest --version >/dev/null 2>&1; then
  echo "==> installing cargo-nextest $NEXTEST_VERSION into $TOOLS (cargo install --locked; a few minutes, once)"
  cargo install cargo-nextest --version "$NEXTEST_VERSION" --locked --quiet --root "$TOOLS" \
    || { echo "ERROR: cannot install cargo-nextest from crates.io" >&2; exit 1; }
fi
scripts/build-deps.sh
scripts/oidc-deps.sh
scripts/receiver-deps.sh
cargo nextest run --workspace --no-fail-fast "$@"
if [ "$#" -eq 0 ]; then
  cargo test --workspace --doc
fi
