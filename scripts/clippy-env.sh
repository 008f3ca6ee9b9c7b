# shellcheck shell=bash
# Sourced by scripts/test.sh and scripts/lint-build.sh: clippy (-D warnings) as the rustc of the
# workspace's own crates, as `cargo clippy` sets it up for `cargo check`, here for the debug build.
# Cargo keeps what the wrapper compiles apart from a plain build's (the wrapper's path is part of
# the artifacts' hash), so every cargo command that should reuse the linted build must see both.
clippy_driver=$(command -v clippy-driver || true)
if [ -z "$clippy_driver" ]; then
  echo "ERROR: clippy-driver not found (rustup component add clippy)" >&2
  exit 1
fi
export RUSTC_WORKSPACE_WRAPPER="$clippy_driver"
# `cargo clippy -- -D warnings` passes its arguments to clippy-driver this way.
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
