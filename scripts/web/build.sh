#!/usr/bin/env bash
# Builds the static page: the page of `cutoff serve` (cli/src/serve/page, the same files)
# with its API compiled to WebAssembly (the crate cutoff-web, web/), run in a Web Worker
# (web/worker.js). Any static host serves the folder; nothing runs on a server.
#
#   bash scripts/web/build.sh [OUTDIR]        (default target/web)
#
# One target, wasm32-unknown-unknown, built --locked from Cargo.lock; the wasm-bindgen command
# is the version Cargo.lock holds for the wasm-bindgen crate (the two must match), installed
# from crates.io with `cargo install` if missing (under 2 minutes on two cores). Environment:
# CARGO_TARGET_DIR (default target/), WASM_BINDGEN (a wasm-bindgen command to use).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$root/target/web}
[[ $out == /* ]] || out=$PWD/$out
cd "$root"
target_dir=${CARGO_TARGET_DIR:-$root/target}
[[ $target_dir == /* ]] || target_dir=$root/$target_dir

if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi

# The wasm-bindgen crate's version in Cargo.lock: the command must be the same.
version=$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)
[[ -n $version ]] || { echo "web/build.sh: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
bindgen=${WASM_BINDGEN:-$(command -v wasm-bindgen || true)}
if [[ -z $bindgen || $("$bindgen" --version 2>/dev/null) != "wasm-bindgen $version" ]]; then
    echo "web/build.sh: installing wasm-bindgen-cli $version"
    # The wasm-bindgen command alone, without TLS (for the test runner's downloads, unused
    # here): 1.7 minutes where the default features take 4. --locked: its dependencies as its
    # release fixed them; should the registry lack one of those, the newest its manifest allows.
    opts=(--version "=$version" --no-default-features --bin wasm-bindgen)
    cargo install wasm-bindgen-cli "${opts[@]}" --locked || cargo install wasm-bindgen-cli "${opts[@]}"
    bindgen=${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen
fi

# The release profile without its debug information (the WebAssembly module would carry
# 30 MB of it).
CARGO_PROFILE_RELEASE_DEBUG=0 cargo build --locked --release -p cutoff-web \
    --target wasm32-unknown-unknown
rm -rf "$out"
mkdir -p "$out"
"$bindgen" --target web --no-typescript --out-dir "$out" \
    "$target_dir/wasm32-unknown-unknown/release/cutoff_web.wasm"
cp cli/src/serve/page/index.html cli/src/serve/page/app.js cli/src/serve/page/style.css \
    web/worker.js "$out/"
echo "web/build.sh: $out ($(du -k "$out/cutoff_web_bg.wasm" | cut -f1) KiB of WebAssembly); serve it with" \
    "python3 -m http.server -d $out"
