#!/usr/bin/env bash
# The Rust tests: every test of the workspace with cargo-nextest (each test its own process, the
# tests of all binaries in one queue, twice as many at once as there are cores; test groups and the
# retries of timing-sensitive tests in .config/nextest.toml, a retried pass reported as FLAKY),
# then the doctests, which nextest does not run. Arguments go to `cargo nextest run`
# (e.g. scripts/test-rust.sh -E 'binary_id(closewise-api::replicas)').
# cargo-nextest comes from scripts/install-nextest.sh (once, into target/tools).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-nextest.sh
TOOLS="$(realpath -m "${CARGO_TARGET_DIR:-target}/tools/cargo-nextest")"
export PATH="$TOOLS/bin:$PATH"
scripts/build-deps.sh
scripts/oidc-deps.sh
scripts/receiver-deps.sh
# Two tests per core: many of them spend much of their time waiting on a server, a database or a
# child process, so one per core left a third of the machine idle (docs/performance.md, Test time).
# NEXTEST_TEST_THREADS or --test-threads overrides it.
export NEXTEST_TEST_THREADS="${NEXTEST_TEST_THREADS:-$((2 * $(nproc)))}"
cargo nextest run --workspace --no-fail-fast "$@"
if [ "$#" -eq 0 ]; then
  cargo test --workspace --doc
fi
