#!/usr/bin/env bash
# The lint stage of `./just test`: formatting, then clippy on every target of the workspace with
# -D warnings (what `./just lint` runs) compiled into the one debug build (scripts/debug-build.sh)
# rather than into a check build of its own.
# `cargo clippy` is `cargo check` with clippy-driver as the rustc of the workspace's own crates
# (RUSTC_WORKSPACE_WRAPPER, its arguments in CLIPPY_ARGS; scripts/clippy-env.sh). The same wrapper
# on `cargo test --workspace --no-run` lints the same targets (each library and binary, in normal
# and test mode, and the integration tests) while compiling them, so the dependencies are compiled
# once, for the tests, not a second time in check mode for clippy alone. A lint fails the build
# exactly as it fails `cargo clippy`. test.sh exports the same variables for the whole run, so
# test-rust and the suites after it reuse this build instead of compiling the workspace again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-deps.sh
# shellcheck source=scripts/clippy-env.sh
source scripts/clippy-env.sh
cargo fmt --all -- --check
echo "==> clippy --workspace --all-targets -D warnings, in the debug build"
cargo test --workspace --no-run --quiet
