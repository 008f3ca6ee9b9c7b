#!/bin/sh
# Writes the Rust workspace's dependency skeleton to $1: Cargo.toml, Cargo.lock and every member's
# manifest, with empty stand-ins for each source file a manifest or cargo's layout names
# (src/lib.rs, src/main.rs, src/bin/*.rs, any `path = "….rs"`) and the real build scripts. It
# changes only when a manifest or the lock does, so the image's dependency layer (built from it) is
# reused for changes to the sources alone. Run from the repository root; used by deploy/Dockerfile.
set -eu
out=${1:?usage: cargo-skeleton.sh OUT_DIR}
mkdir -p "$out"
cp Cargo.toml Cargo.lock "$out/"
for manifest in crates/*/Cargo.toml; do
  dir=${manifest%/Cargo.toml}
  mkdir -p "$out/$dir/src"
  cp "$manifest" "$out/$dir/"
  [ ! -f "$dir/build.rs" ] || cp "$dir/build.rs" "$out/$dir/"
  for source in "$dir/src/main.rs" "$dir"/src/bin/*.rs \
    $(sed -n 's/^ *path *= *"\([^"]*\.rs\)".*/\1/p' "$manifest" | sed "s|^|$dir/|"); do
    [ -f "$source" ] || continue
    mkdir -p "$(dirname "$out/$source")"
    echo 'fn main() {}' >"$out/$source"
  done
  [ ! -f "$dir/src/lib.rs" ] || : >"$out/$dir/src/lib.rs"
done
