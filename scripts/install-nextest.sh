#!/usr/bin/env bash
# cargo-nextest for test-rust, installed into target/tools/cargo-nextest the first time (as ./just
# installs just). Built in the dev profile (`--debug`): it compiles in about half the CPU time of a
# release build and only spawns and watches the test processes, so its own speed does not show in a
# run. `./just test` starts this in the background at the beginning of the run, beside check-deploy.
set -euo pipefail
cd "$(dirname "$0")/.."
NEXTEST_VERSION="0.9.143"
TOOLS="$(realpath -m "${CARGO_TARGET_DIR:-target}/tools/cargo-nextest")"
export PATH="$TOOLS/bin:$HOME/.cargo/bin:$PATH"
if cargo nextest --version 2>/dev/null | grep -q "$NEXTEST_VERSION"; then exit 0; fi
echo "==> installing cargo-nextest $NEXTEST_VERSION into $TOOLS (cargo install --locked --debug; once)"
# The workspace's clippy wrapper is not for other packages' builds.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
cargo install cargo-nextest --version "$NEXTEST_VERSION" --locked --debug --quiet --root "$TOOLS" \
  --target-dir "$TOOLS/build" \
  || { echo "ERROR: cannot install cargo-nextest from crates.io" >&2; exit 1; }
rm -rf "$TOOLS/build"
