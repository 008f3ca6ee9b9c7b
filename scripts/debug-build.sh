#!/usr/bin/env bash
# The one debug build every suite shares: `cargo test --workspace --no-run`, the very invocation
# cargo-nextest makes in test-rust, so the binaries in target/debug/ (closewise-api, stripe-mock,
# closewise, closewise-desktop, closewise-test-dns) are the ones the Rust tests start, and after
# test-rust this compiles nothing. `cargo build -p ...` (or `--workspace --bins`) resolves the
# features without the dev-dependencies: it rebuilds 14 crates and replaces those binaries, which
# the next `cargo test` builds back.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-deps.sh
echo "==> the debug build (cargo test --workspace --no-run; nothing to do when test-rust built it)"
cargo test --workspace --no-run --quiet
